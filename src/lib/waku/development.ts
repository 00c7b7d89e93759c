// Owns the one question "is this Waku's dev server?" (`bun run dev`). Vite defines
// `import.meta.env.DEV` there; the build, the CLI and `bun test` (Bun's own import.meta.env)
// say false. What changes in development: errors are shown to the developer (the error page
// and a readable stack in the terminal) and the CSP allows what React's and Vite's
// development code needs.
export const DEVELOPMENT = String(import.meta.env.DEV) === 'true';
