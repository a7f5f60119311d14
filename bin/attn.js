#!/usr/bin/env node
// Entry for `npx attn`: the bundled CLI lives in dist/ (built by `npm run build`).
require('../dist/attn.js');
