//! Real files the machine has, read with the gallery's schemas: skipped, saying so, without
//! the gallery or the file.

use std::path::Path;

use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::RoundTrip;
use skelcodec_runtime::corpus::announce_skip;

use crate::common::gallery;

/// The first of `candidates` that is a file.
fn first_file<'a>(candidates: &[&'a str]) -> Option<&'a Path> {
    (candidates.iter().copied())
        .map(Path::new)
        .find(|p| p.is_file())
}

/// The name of each section of an ELF file, found from its bytes alone: the NUL-terminated
/// string at each section header's `sh_name` in the section the header names
/// (`e_shstrndx`), for 32- and 64-bit files of either byte order.
fn section_names(elf: &[u8]) -> Vec<String> {
    let wide = elf[4] == 2;
    let big = elf[5] == 2;
    let int = |at: usize, len: usize| -> usize {
        let bytes = &elf[at..at + len];
        let fold = |n: usize, b: &u8| (n << 8) | usize::from(*b);
        match big {
            true => bytes.iter().fold(0, fold),
            false => bytes.iter().rev().fold(0, fold),
        }
    };
    let (word, table) = if wide { (8, 0x28) } else { (4, 0x20) };
    let (shoff, shentsize) = (int(table, word), int(table + word + 10, 2));
    let (shnum, shstrndx) = (int(table + word + 12, 2), int(table + word + 14, 2));
    let header = |i: usize| shoff + i * shentsize;
    let offset_field = if wide { 0x18 } else { 0x10 };
    let strings = int(header(shstrndx) + offset_field, word);
    (0..shnum)
        .map(|i| {
            let start = strings + int(header(i), 4);
            let len = elf[start..].iter().position(|&b| b == 0).unwrap_or(0);
            String::from_utf8_lossy(&elf[start..start + len]).into_owned()
        })
        .collect()
}

#[test]
fn an_elf_program_reads_with_its_section_names_and_writes_back_byte_for_byte() {
    // Its section headers are read again once the list is complete (each links another
    // section) and once the string table located by one of them is read (their names).
    let schema = gallery().join("executable/elf.ksy");
    let Some(program) = first_file(&["/bin/ls", "/usr/bin/ls", "/bin/sh", "/usr/bin/env"]) else {
        announce_skip("skipped: no ELF program at /bin/ls, /usr/bin/ls, /bin/sh or /usr/bin/env");
        return;
    };
    if !schema.is_file() {
        announce_skip(&format!(
            "skipped: no gallery schema at {}",
            schema.display()
        ));
        return;
    }
    let bytes = std::fs::read(program).unwrap();
    if !bytes.starts_with(b"\x7fELF") {
        announce_skip(&format!(
            "skipped: {} is not an ELF file",
            program.display()
        ));
        return;
    }
    let interpreter = Interpreter::load(&schema, &[gallery()]).unwrap_or_else(|e| panic!("{e}"));
    let value = interpreter
        .read(&bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let document = serde_json::to_value(interpreter.document(&value)).unwrap();
    let read_names: Vec<&str> = document["header"]["section_headers"]
        .as_array()
        .expect("a list of section headers")
        .iter()
        .map(|header| header["name"]["text"].as_str().expect("a name"))
        .collect();
    let names = section_names(&bytes);
    assert!(names.iter().any(|n| n == ".text"), "{names:?}");
    assert_eq!(read_names, names);
    assert_eq!(
        interpreter.round_trip(&bytes).unwrap(),
        RoundTrip::Exact,
        "{} written back",
        program.display()
    );
    let from_document = interpreter
        .value_of(&document)
        .expect("its document is a value");
    assert!(
        interpreter.write(&from_document).unwrap() == bytes,
        "written from its document"
    );
}
