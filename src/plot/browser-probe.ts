// The script rlx injects into a figure's page before Chromium loads it, and the
// reading of what it reports. One probe serves both browser uses:
// - renderCheck: record every error the page raises (window errors, unhandled
//   rejections, console.error, a plotly call that throws or rejects) and
//   whether every plotly call finished with an SVG drawn, then publish that in
//   the DOM, which `chromium --dump-dom` prints.
//   Each spec also goes through Plotly.validate (plotly's schema), whose
//   complaints plotly would otherwise swallow while drawing.
// - savePng: make each plot fill the window (the screenshot's size) and hide
//   plotly's mode bar, which has no business in a static image.
//
// Why intercept `window.Plotly` rather than edit the figure's script: the probe
// does not depend on how the page calls plotly (newPlot or react, with
// (div, data, layout, config) or (div, {data, layout, frames})), so any page
// that loads plotly.js the usual way (its UMD bundle assigns window.Plotly) is
// checked, including pages the Figure class did not make.

export type ProbeMode = { kind: 'check' } | { kind: 'png'; width: number; height: number };

/** The id of the attribute that carries the probe's base64 JSON report. */
const REPORT_ATTR = 'data-rlx-render-report';

function probeSource(mode: ProbeMode): string {
  // Plain ES5 inside the page: it runs before anything else, in any Chromium.
  return `(function () {
  var MODE = ${JSON.stringify(mode)};
  var S = { errors: [], invalid: [], calls: 0, settled: 0, failed: 0, plotly: false };
  function str(x) { try { return x && x.stack ? String(x.stack).split('\\n').slice(0, 3).join(' ') : typeof x === 'object' ? JSON.stringify(x) : String(x); } catch (e) { return String(x); } }
  function publish() {
    var divs = document.querySelectorAll('.js-plotly-plot');
    var drawn = 0;
    for (var i = 0; i < divs.length; i++) if (divs[i].querySelector('svg.main-svg')) drawn++;
    var r = { errors: S.errors, invalid: S.invalid, calls: S.calls, settled: S.settled, failed: S.failed, plotly: S.plotly, divs: divs.length, drawn: drawn };
    document.documentElement.setAttribute('${REPORT_ATTR}', btoa(unescape(encodeURIComponent(JSON.stringify(r)))));
  }
  window.addEventListener('error', function (e) { S.errors.push('error: ' + (e.error ? str(e.error) : e.message) + (e.filename ? ' (' + e.filename.split('/').pop() + ':' + e.lineno + ')' : '')); publish(); });
  window.addEventListener('unhandledrejection', function (e) { S.errors.push('unhandled rejection: ' + str(e.reason)); publish(); });
  var consoleError = console.error;
  console.error = function () { S.errors.push('console.error: ' + Array.prototype.map.call(arguments, str).join(' ')); publish(); return consoleError.apply(console, arguments); };
  function fitToWindow(args) {
    if (MODE.kind !== 'png') return args;
    var a = Array.prototype.slice.call(args);
    var size = { width: MODE.width, height: MODE.height, autosize: false };
    function withSize(layout) { var l = {}; for (var k in layout || {}) l[k] = layout[k]; for (var k2 in size) l[k2] = size[k2]; return l; }
    function withConfig(config) { var c = {}; for (var k in config || {}) c[k] = config[k]; c.displayModeBar = false; c.responsive = false; return c; }
    if (a[1] && !Array.isArray(a[1]) && typeof a[1] === 'object') {
      var fig = {}; for (var k in a[1]) fig[k] = a[1][k];
      fig.layout = withSize(fig.layout); fig.config = withConfig(fig.config); a[1] = fig;
    } else { a[2] = withSize(a[2]); a[3] = withConfig(a[3]); }
    return a;
  }
  // plotly's own schema check (unknown trace types, misspelt or mistyped
  // attributes), which plotly otherwise ignores silently while drawing.
  function validate(P, args) {
    if (typeof P.validate !== 'function') return;
    var fig = args[1] && !Array.isArray(args[1]) && typeof args[1] === 'object' ? args[1] : { data: args[1], layout: args[2] };
    try {
      var out = P.validate(fig.data || [], fig.layout || {}) || [];
      for (var i = 0; i < out.length; i++) if (!falsePositive(fig, out[i])) S.invalid.push('call ' + S.calls + ': ' + out[i].msg);
    } catch (e) { S.invalid.push('call ' + S.calls + ': Plotly.validate threw: ' + str(e)); }
  }
  // Two kinds of Plotly.validate message that are not problems (plotly 3-4):
  // - code 'array' on a base64 typed-array spec ({dtype, bdata, shape}, which
  //   newPlot decodes but validate does not know);
  // - code 'dynamic' where the value "got reset" to one that prints the same:
  //   validate compares the slider/updatemenu 'args' it copied by identity.
  function valueAt(fig, o) {
    var v = o.container === 'data' ? (fig.data || [])[o.trace] : fig.layout;
    for (var i = 0; v != null && o.path && i < o.path.length; i++) v = v[o.path[i]];
    return v;
  }
  function falsePositive(fig, o) {
    if (o.code === 'array') { var v = valueAt(fig, o); if (v && typeof v === 'object' && typeof v.bdata === 'string') return true; }
    if (o.code === 'dynamic') { var m = /set to '([\\s\\S]*)'\\) got reset to '([\\s\\S]*)' during defaults/.exec(o.msg); if (m && m[1] === m[2]) return true; }
    return false;
  }
  function wrap(P) {
    S.plotly = true;
    ['newPlot', 'react'].forEach(function (name) {
      var f = P[name];
      if (typeof f !== 'function' || f.__rlxProbe) return;
      var g = function () {
        S.calls++;
        validate(P, arguments);
        var r;
        try { r = f.apply(this, fitToWindow(arguments)); }
        catch (e) { S.failed++; S.errors.push('Plotly.' + name + ' threw: ' + str(e)); publish(); throw e; }
        Promise.resolve(r).then(function () { S.settled++; publish(); }, function (e) { S.failed++; S.errors.push('Plotly.' + name + ' rejected: ' + str(e)); publish(); });
        return r;
      };
      g.__rlxProbe = true;
      P[name] = g;
    });
  }
  var current;
  Object.defineProperty(window, 'Plotly', { configurable: true, enumerable: true, get: function () { return current; }, set: function (v) { current = v; if (v) wrap(v); } });
  window.addEventListener('load', publish);
  publish();
})();`;
}

/** The page with the probe as the first script of its <head> (or of the document). */
export function injectProbe(html: string, mode: ProbeMode): string {
  let extra = `<script>${probeSource(mode)}</script>`;
  if (mode.kind === 'png') extra += '<style>html,body{margin:0!important;padding:0!important;overflow:hidden!important}</style>';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + extra + html.slice(head.index + head[0].length);
  const root = /<html(\s[^>]*)?>/i.exec(html);
  if (root) return html.slice(0, root.index + root[0].length) + `<head>${extra}</head>` + html.slice(root.index + root[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + extra + html.slice(at);
}

/** What the probe saw. */
export interface ProbeReport {
  errors: string[];
  /** Plotly.validate's messages for the specs the page plotted (attributes plotly ignores while drawing). */
  invalid: string[];
  /** Plotly.newPlot/react calls made, settled (resolved) and failed (threw or rejected). */
  calls: number;
  settled: number;
  failed: number;
  /** Whether plotly.js was loaded at all. */
  plotly: boolean;
  /** Plot divs on the page, and how many have plotly's main SVG drawn. */
  divs: number;
  drawn: number;
}

/** The probe's report from a `--dump-dom` output, or undefined when the probe never ran. */
export function readReport(dom: string): ProbeReport | undefined {
  const m = new RegExp(`${REPORT_ATTR}="([A-Za-z0-9+/=]*)"`).exec(dom);
  if (!m) return undefined;
  return JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as ProbeReport;
}

/** Rendered: plotly loaded, at least one call, every call settled, every plot div drawn, no error. */
export function isRendered(r: ProbeReport): boolean {
  return r.plotly && r.calls > 0 && r.settled === r.calls && r.failed === 0 && r.divs > 0 && r.drawn === r.divs && r.errors.length === 0;
}
