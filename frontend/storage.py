"""Production static files: WhiteNoise's compressed manifest storage (hashed names, gzip and
Brotli copies, served with a ten-year ``Cache-Control: immutable``), with the ES modules'
``import ... from "./x.js"`` rewritten to hashed names too (Django's documented, opt-in
``support_js_module_import_aggregation``). Without it, a page's entry module would be
hashed but every module it imports would be served under its plain name, which WhiteNoise
may cache for a minute only."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
