/*
 * Meridian boot hint, run before first paint. The build inlines it into index.html
 * (scripts/postbuild.mjs) and the server's CSP allows it by its SHA-256; `vite dev` serves this file.
 * index.html carries the home page prerendered in each language, and each other prerendered public
 * page has a file of its own; the page's `<meta name="meridian-prerendered">` names its path. This
 * marks <html> with whether that copy belongs to this address, the language and whether a user is
 * signed in, so CSS shows the matching copy — or none on other paths — until the app takes over. It
 * mirrors src/lib/locale.ts and only reads.
 */
/* global window, document */
(function () {
  var html = document.documentElement;
  var locales = ['en-US', 'zh-HK'];
  function match(value) {
    if (!value) return null;
    var lower = String(value).trim().toLowerCase();
    for (var i = 0; i < locales.length; i++) if (locales[i].toLowerCase() === lower) return locales[i];
    return null;
  }
  var stored = null;
  var userId = null;
  try {
    stored = window.localStorage.getItem('meridian.locale');
    userId = window.localStorage.getItem('meridian.userId');
  } catch {
    /* storage unavailable: defaults apply */
  }
  var params = new URLSearchParams(window.location.search);
  var locale = match(params.get('locale')) || match(stored) || 'en-US';
  html.setAttribute('lang', locale);
  html.setAttribute('data-boot-locale', locale);
  var prerendered = document.querySelector('meta[name="meridian-prerendered"]');
  var isPrerendered = !!prerendered && prerendered.getAttribute('content') === window.location.pathname;
  html.setAttribute('data-boot-path', isPrerendered ? 'prerendered' : 'app');
  if (userId || params.get('_lt')) html.setAttribute('data-boot-user', '');
})();
