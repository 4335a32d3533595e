// Runs a Python script under Pyodide in Node, set up as the web app's worker
// sets itself up: Pyodide and the wheels of the built app (build/app), the
// app's Python modules on sys.path. Prints what the script prints.
//
//   node tests/pyodide_run.mjs APP_DIR SCRIPT.py [ARG...]
import fs from "node:fs";
import path from "node:path";
import { loadPyodide } from "../examples/web_app/node_modules/pyodide/pyodide.mjs";

const [appDir, script, ...args] = process.argv.slice(2);
const app = path.resolve(appDir);
const build = JSON.parse(fs.readFileSync(path.join(app, "build-info.json"), "utf8"));
const pyodide = await loadPyodide({
  indexURL: path.join(app, "pyodide") + path.sep,
  packages: [],
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const quiet = () => {};
await pyodide.loadPackage(
  build.wheels.map((name) => path.join(app, "wheels", name)),
  { messageCallback: quiet, errorCallback: (text) => process.stderr.write(text + "\n") },
);
pyodide.FS.mkdirTree("/app");
for (const name of build.python) {
  pyodide.FS.writeFile(`/app/${name}`, fs.readFileSync(path.join(app, "python", name), "utf8"));
}
pyodide.globals.set("script_args", pyodide.toPy([script, ...args]));
pyodide.runPython("import sys\nsys.path.insert(0, '/app')\nsys.argv = list(script_args)");
try {
  pyodide.runPython(fs.readFileSync(script, "utf8"), { filename: script });
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
