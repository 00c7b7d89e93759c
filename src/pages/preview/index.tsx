// Waku has no optional catch-all: /preview itself is this re-export of the catch-all page.
export { default, getConfig } from './[...slug]';
