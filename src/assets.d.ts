// Stylesheets are imported for their side effect; Vite bundles them.
declare module '*.css';

declare module '*.css?inline' {
  const css: string;
  export default css;
}

// Vite's `?url` imports: the built asset's address.
declare module '*?url' {
  const url: string;
  export default url;
}
