// An inline script, so it works even when none of the bundled JavaScript could load: when a
// script, module or stylesheet of ours fails to load (a stale chunk after a deploy, a flaky
// network), reload the page once; if it fails again within a minute, show the client-side
// fallback page instead of looping. Inline because the bundle is what failed.
// Waku 1.0.0-rc.1 has a reload-once listener of its own for the same event; this one runs
// first and stops it, or both would reload (three loads instead of two) — see waku-internals.
// It also keeps the errors thrown before the bundle has run (window.__folioEarlyErrors), which
// client-errors.ts takes over and reports.
import { PRELOAD_ERROR_EVENT } from '../lib/waku/internals';

const GUARD_SCRIPT = `(function(){
var KEY='folio:reloaded-at';
function ours(url){try{var u=new URL(url,location.href);return u.origin===location.origin&&/^\\/(assets|RSC)\\//.test(u.pathname);}catch(e){return false;}}
var handled=false;
function fail(){
  if(handled)return;handled=true;
  var last=Number(sessionStorage.getItem(KEY)||0);
  if(Date.now()-last>60000){sessionStorage.setItem(KEY,String(Date.now()));location.reload();return;}
  var m=document.createElement('main');m.className='app-error';
  var h=document.createElement('h1');
  h.textContent='Application error: a client-side exception has occurred while loading '+location.hostname+' (see the browser console for more information).';
  m.appendChild(h);document.body.replaceChildren(m);document.title='Application error';
}
addEventListener('error',function(e){var t=e.target;if(t&&(t.tagName==='SCRIPT'||t.tagName==='LINK')&&ours(t.src||t.href))fail();},true);
addEventListener('unhandledrejection',function(e){var r=e.reason,m=r&&r.message||'';if(/dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(m))fail();});
addEventListener('${PRELOAD_ERROR_EVENT}',function(e){e.preventDefault();e.stopImmediatePropagation();fail();});
var q=window.__folioEarlyErrors=[];
function keep(m,x){if(window.__folioEarlyErrors===q&&q.length<20)q.push([m,x]);}
addEventListener('error',function(e){if(e.error)keep('onerror',e.error);});
addEventListener('unhandledrejection',function(e){keep('onunhandledrejection',e.reason);});
})();`;

export function LoadFailureGuard() {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, not content
  return <script dangerouslySetInnerHTML={{ __html: GUARD_SCRIPT }} />;
}
