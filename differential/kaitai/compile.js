// Compiles gallery schemas to Python with Kaitai Struct's reference compiler (the npm build of
// kaitai-struct-compiler, whose only interface is its compile API).
//
//   node compile.js GALLERY OUT SCHEMA...
//
// Each SCHEMA (a path relative to GALLERY, `image/png.ksy`) goes to OUT/<id>/ with the modules
// of its imports; OUT/status.json maps each id to null or the compiler's error. Imports are
// resolved as Kaitai resolves them: `/common/x` from GALLERY, `x` beside the importing file
// (the compiler does not say which file imports, so beside the schema, then beside each file
// imported so far).
'use strict';
const fs = require('fs');
const path = require('path');
const nodeModules = process.env.KAITAI_NODE_MODULES || '/tmp/differential/node/node_modules';
const compiler = require(path.join(nodeModules, 'kaitai-struct-compiler'));
const yaml = require(path.join(nodeModules, 'js-yaml'));

function load(file) {
  return yaml.load(fs.readFileSync(file, 'utf8'));
}

async function compileOne(gallery, out, schema) {
  const schemaPath = path.join(gallery, schema);
  const dirs = [path.dirname(schemaPath)];
  const importer = {
    importYaml(name, mode) {
      const candidates = mode === 'abs'
        ? [path.join(gallery, name.replace(/^\//, '') + '.ksy')]
        : dirs.map((d) => path.join(d, name + '.ksy'));
      const found = candidates.find((c) => fs.existsSync(c));
      if (!found) {
        return Promise.reject(new Error(`import ${name} (${mode}) not found in ${candidates}`));
      }
      const dir = path.dirname(found);
      if (!dirs.includes(dir)) dirs.push(dir);
      return Promise.resolve(load(found));
    },
  };
  const files = await compiler.compile('python', load(schemaPath), importer, false);
  const id = path.basename(schema, '.ksy');
  const target = path.join(out, id);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  for (const [name, source] of Object.entries(files)) {
    fs.writeFileSync(path.join(target, name), source);
  }
  return id;
}

async function main() {
  const [gallery, out, ...schemas] = process.argv.slice(2);
  if (!gallery || !out) {
    console.error('usage: node compile.js GALLERY OUT SCHEMA...');
    process.exit(2);
  }
  fs.mkdirSync(out, { recursive: true });
  const statusFile = path.join(out, 'status.json');
  const status = fs.existsSync(statusFile) ? JSON.parse(fs.readFileSync(statusFile, 'utf8')) : {};
  for (const schema of schemas) {
    const id = path.basename(schema, '.ksy');
    try {
      await compileOne(gallery, out, schema);
      status[id] = null;
    } catch (e) {
      // The compiler throws Scala exceptions: their message is in `s$1` or their toString.
      const message = (e && (e.message || e.s$1 || (e.toString && e.toString()))) || String(e);
      status[id] = String(message);
      console.error(`kaitai: ${schema}: ${message}`);
    }
  }
  fs.writeFileSync(statusFile, JSON.stringify(status, null, 1));
  const ok = Object.values(status).filter((s) => s === null).length;
  console.log(`kaitai: ${ok}/${Object.keys(status).length} schemas compiled to Python in ${out}`);
}

main();
