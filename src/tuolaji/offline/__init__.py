"""The offline build: the whole game in the browser on Pyodide, installable as an app.

:mod:`.build` (runs on CPython) writes the static folder: the web client, the Pyodide runtime
copied from the npm package, the tuolaji package packed for the worker, a web font subset,
the manifest, icons and the service worker. :mod:`.host` runs inside the Web Worker on Pyodide:
the same rooms as the server, answering the same API and table protocol, with saves in IndexedDB.
"""
