// Hydration waits for the first paint. A page is whole without JavaScript (links, forms, the
// compact menu all work as HTML), so on a phone's slow line the bytes that decide when a
// reader sees the page (the HTML, the reading face, the first image) should not share the
// line with the 90 KB bundle that only makes navigation faster. Waku's HTML asks for the
// bundle at once: a <link rel="modulepreload"> per module in <head>, and an `import()` of the
// entry in its bootstrap script. This rewrites both on the way out: the modulepreload links
// are taken out and added again by the bootstrap once the browser has painted, followed by
// the entry's import, so the bundle still arrives in one parallel round.
// Measured with `bun run bench --lighthouse` (bench/results.md): decision 0023.

import type { Route } from '../http/routes';
import { DEVELOPMENT } from './development';
import { WAKU_BOOTSTRAP_MARKER, wakuEntryImport } from './internals';

/**
 * A promise executor that resolves once the page has painted: on the first paint entry (the
 * browser reports it after the frame is shown), at once in a tab that is not visible (it
 * paints nothing until shown, and nothing competes with a paint there), and after 3 s
 * whatever happened, so a browser that reports no paints still hydrates.
 */
const AFTER_FIRST_PAINT = `function(go){
var done=false;function run(){if(!done){done=true;setTimeout(go,0);}}
if(document.visibilityState==='hidden'){run();return;}
setTimeout(run,3000);
try{
if(!PerformanceObserver.supportedEntryTypes||PerformanceObserver.supportedEntryTypes.indexOf('paint')<0)throw 0;
new PerformanceObserver(function(list,o){if(list.getEntries().length){o.disconnect();run();}}).observe({type:'paint',buffered:true});
}catch(e){requestAnimationFrame(function(){requestAnimationFrame(run);});}
}`;

/** The bootstrap's entry import, deferred: the module preloads first, then the import. */
function deferredImport(entry: string, modules: string[]): string {
  const preload = modules.length
    ? `${JSON.stringify(modules)}.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;l.crossOrigin='';document.head.appendChild(l);});`
    : '';
  return `new Promise(${AFTER_FIRST_PAINT}).then(function(){${preload}return import(${JSON.stringify(entry)});})`;
}

/** Rewrites a bootstrap script's text, or returns null if it is not Waku's bootstrap. */
export function deferBootstrap(script: string, modules: string[]): string | null {
  if (!script.includes(WAKU_BOOTSTRAP_MARKER)) return null;
  const found = wakuEntryImport(script);
  if (!found) return null;
  return `${script.slice(0, found.index)}${deferredImport(found.entry, modules)}${script.slice(found.index + found.length)}`;
}

/**
 * A public page's HTML with hydration deferred to after the first paint; any other response as
 * it was. Streams: the preload links come in <head>, the bootstrap at the end of <body>.
 * Only public pages: an editor's screens hydrate at once, since text typed into a form before
 * hydration is not what React's state holds (the e2e editor suite caught a Preview that did
 * not show it, and a hydration that put the old text back beside the new).
 */
export function hydrateAfterPaint(response: Response, route: Route): Response {
  if (route.kind !== 'page') return response;
  // Not under `bun run dev`: there the page loads Vite's client and modules one by one
  // anyway, and through Bun's HTMLRewriter its pages came out empty (seen, not explained).
  if (
    DEVELOPMENT ||
    !response.body ||
    !response.headers.get('content-type')?.startsWith('text/html')
  )
    return response;
  // The rewrite changes the length: a length the app declared would cut the page short.
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const unsized = new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  const modules: string[] = [];
  let script = '';
  return new HTMLRewriter()
    .on('link[rel="modulepreload"][href]', {
      element(link) {
        const href = link.getAttribute('href');
        // Only this site's modules are the bundle; anything else is left as it was.
        if (!href?.startsWith('/') || href.startsWith('//')) return;
        modules.push(href);
        link.remove();
      },
    })
    .on('script:not([src])', {
      text(chunk) {
        // A script's text can arrive in pieces: it is held until whole, then written once.
        script += chunk.text;
        if (!chunk.lastInTextNode) {
          chunk.remove();
          return;
        }
        chunk.replace(deferBootstrap(script, modules) ?? script, { html: true });
        script = '';
      },
    })
    .transform(unsized);
}
