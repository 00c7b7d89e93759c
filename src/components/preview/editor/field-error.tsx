// A field's refusal, named by the field's aria-describedby (`<name>-error`).
export function FieldError({ name, message }: { name: string; message: string | undefined }) {
  return message ? (
    <span id={`${name}-error`} className="field-error">
      {message}
    </span>
  ) : null;
}
