// Runs a Python script under Pyodide in Node, set up as the web app's worker
// sets itself up: Pyodide and the wheels of the built app (build/app)
// unpacked into site-packages, the app's Python modules on sys.path. Prints
// what the script prints.
//
//   node tests/pyodide_run.mjs [--snapshot] APP_DIR SCRIPT.py [ARG...]
//
// With --snapshot the script runs as it does at a later visit: in an
// interpreter restored from the memory snapshot of a first start (local_table
// imported, its catalogue made), with the files put back and the random
// generator reseeded.
import fs from "node:fs";
import path from "node:path";
import { loadPyodide } from "../examples/web_app/node_modules/pyodide/pyodide.mjs";

const given = process.argv.slice(2);
const fromSnapshot = given[0] === "--snapshot";
const [appDir, script, ...args] = fromSnapshot ? given.slice(1) : given;
const app = path.resolve(appDir);
const build = JSON.parse(fs.readFileSync(path.join(app, "build-info.json"), "utf8"));
const options = {
  indexURL: path.join(app, "pyodide") + path.sep,
  packages: [],
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
};

function installFiles(pyodide) {
  const sitePackages = pyodide.runPython("import sysconfig\nsysconfig.get_path('purelib')");
  for (const name of build.wheels) {
    const wheel = new Uint8Array(fs.readFileSync(path.join(app, "wheels", name)));
    pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  }
  pyodide.FS.mkdirTree("/app");
  for (const name of build.python) {
    pyodide.FS.writeFile(`/app/${name}`, fs.readFileSync(path.join(app, "python", name), "utf8"));
  }
}

let pyodide = await loadPyodide({ ...options, _makeSnapshot: fromSnapshot });
installFiles(pyodide);
pyodide.runPython("import sys\nsys.path.insert(0, '/app')");
if (fromSnapshot) {
  pyodide.runPython("import local_table\nlocal_table.catalogue()");
  const snapshot = pyodide.makeMemorySnapshot();
  pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
  installFiles(pyodide);
  pyodide.runPython("import random\nrandom.seed()");
}
pyodide.globals.set("script_args", pyodide.toPy([script, ...args]));
pyodide.runPython("import sys\nsys.argv = list(script_args)");
try {
  pyodide.runPython(fs.readFileSync(script, "utf8"), { filename: script });
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
