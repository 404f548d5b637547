// Plotly.js for the offline lecture (lecture.html): Plotly's own library with only the
// trace types the file draws, built the way plotly.js builds its partial bundles
// (its CUSTOM_BUNDLE.md and esbuild-config.js). About 1.9 MB against the full 4.8 MB:
// Chromium evaluates it in well under half the time, and the first step is drawn within
// the 2 s budget (benchmarks/bench_lecture_pack.py).
//
//   cd lecture_pack/plotly_bundle && npm ci && npm run build
//
// Rebuild when the plotly package's Plotly.js version changes (pin "plotly.js" in
// package.json to `python -c "import plotly.offline as o; print(o.get_plotlyjs_version())"`)
// or when the file draws a new trace type: lecture_pack/html.py uses this bundle only when
// its version and trace types (read from the banner below) cover the file, and the full
// library otherwise, so a stale bundle makes the file slower, never wrong.
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');
const { environmentPlugin } = require('esbuild-plugin-environment');
const { glsl } = require('esbuild-plugin-glsl');
const InlineCSSPlugin = require('esbuild-plugin-inline-css');

// What the offline lecture draws: lecture.js's own charts (scatter, heatmap, bar) and the
// lessons' figures (contour maps, the kernel trick's 3-D lift and its plane).
const TRACES = ['bar', 'contour', 'heatmap', 'scatter', 'scatter3d', 'surface'];

const plotlyDir = path.dirname(require.resolve('plotly.js/package.json'));
const version = require('plotly.js/package.json').version;
const out = path.join(__dirname, '..', 'assets', 'plotly-lecture.min.js');
const entry = [
    "var Plotly = require('plotly.js/lib/core');",
    'Plotly.register([' + TRACES.filter((t) => t !== 'scatter')
        .map((t) => `require('plotly.js/lib/${t}')`).join(', ') + ']);',
    'module.exports = Plotly;',
].join('\n');
const banner = `/*! plotly.js v${version} | partial bundle for KPCA Lab's offline lecture | ` +
    `traces: ${TRACES.join(',')} | (c) Plotly, Inc. | MIT license */`;

esbuild.build({
    stdin: { contents: entry, resolveDir: plotlyDir, sourcefile: 'kpca-lecture-plotly.js' },
    outfile: out,
    format: 'iife',
    globalName: 'Plotly',
    bundle: true,
    minify: true,
    banner: { js: banner },
    plugins: [InlineCSSPlugin(), glsl({ minify: true }), environmentPlugin({ NODE_DEBUG: false })],
    alias: { regl: '@plotly/regl', stream: 'stream-browserify' },
    define: { global: 'window', 'define.amd': 'false' },
    target: 'es2016',
    logLevel: 'warning',
}).then(() => console.log(`${out}: ${fs.statSync(out).size} bytes (${banner})`));
