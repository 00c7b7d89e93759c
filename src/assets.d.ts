// Stylesheets are imported for their side effect; Vite bundles them.
declare module '*.css';

declare module '*.css?inline' {
  const css: string;
  export default css;
}
