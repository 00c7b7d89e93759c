// Structured data for search engines (schema.org as JSON-LD). Its text is the page's own
// words inside a <script>: `<` is written as \u003c (and `>`, `&`, U+2028/9 likewise), so a
// title reading `</script><script>…` stays a string and can never end the element.
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function JsonLd({ data }: { data: Record<string, unknown> }) {
  return (
    <script
      type="application/ld+json"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with every `<` escaped (jsonLdText)
      dangerouslySetInnerHTML={{
        __html: jsonLdText({ '@context': 'https://schema.org', ...data }),
      }}
    />
  );
}
