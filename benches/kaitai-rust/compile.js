// Compiles one schema to Rust with Kaitai Struct's reference compiler (its npm build, whose only
// interface is the compile API) and writes every file it returns (one per schema: the one given
// and those it imports) into a directory.
//
//   node compile.js SCHEMA.ksy OUT_DIR [IMPORT_DIR]
//
// Imports are resolved as Kaitai's compiler resolves them: the compiler joins a relative import
// (`exif`, `../common/foo`) with the directories of the files that import it, relative to the
// schema given, and passes an absolute one (`/common/dos_datetime`) without its leading slash;
// the first is looked up beside SCHEMA.ksy, the second under IMPORT_DIR (default: the directory
// above SCHEMA.ksy's, the root of Kaitai's gallery).
'use strict';
const fs = require('fs');
const path = require('path');
const nodeModules = process.env.KAITAI_NODE_MODULES || '/tmp/differential/node/node_modules';
const compiler = require(path.join(nodeModules, 'kaitai-struct-compiler'));
const yaml = require(path.join(nodeModules, 'js-yaml'));

async function main() {
  const [schema, out, importDir] = process.argv.slice(2);
  const here = path.dirname(path.resolve(schema));
  const root = importDir ? path.resolve(importDir) : path.dirname(here);
  const load = (file) => yaml.load(fs.readFileSync(file, 'utf8'));
  const importer = {
    importYaml: async (name, mode) => load(path.join(mode === 'abs' ? root : here, `${name}.ksy`)),
  };
  const files = await compiler.compile('rust', load(schema), importer, false);
  fs.mkdirSync(out, { recursive: true });
  for (const [name, source] of Object.entries(files)) {
    fs.writeFileSync(path.join(out, name), source);
  }
  console.log(Object.keys(files).join(' '));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
