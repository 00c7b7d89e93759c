// A table cell's column name, shown on phones only, where a `.page-table`'s head is hidden and
// its cells stack (preview.css): the People and Sessions screens (issue 28).
export function PhoneLabel({ children }: { children: string }) {
  return <span className="phone-label">{children}</span>;
}
