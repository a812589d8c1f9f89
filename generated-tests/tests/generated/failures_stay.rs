//! A block read by position that only instances use (ext2's `body`, which `as_dir` reads from)
//! is read on its own: a pointer past the end of the file fails that block, and the directory
//! read from it, alone, as in Kaitai; the other inodes read and the file writes back. (The
//! block was read with its inode, and its failure failed the whole list of inodes.) The
//! generated code and the interpreter alike; the file is built by hand from
//! `tests/schemas/block_pointers.ksy`.

mod block_pointers {
    skelcodec_macros::codec!("tests/schemas/block_pointers.ksy");
}

use block_pointers::BlockPointers;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/block_pointers.ksy";

/// Two inodes of two block pointers: (2, 3), then (0xf0: past the end, 3); blocks of four
/// bytes, `ABCD` at 8 and `EFGH` at 12.
const FILE: &[u8] = b"\x02\x02\x03\xf0\x03\0\0\0ABCDEFGH";

#[test]
fn a_pointer_past_the_end_fails_its_own_block_and_directory_alone() {
    let value = BlockPointers::read(FILE).expect("the file reads");
    let inodes = value.inodes.get().expect("every inode reads");
    assert_eq!(inodes.len(), 2);
    let dir = inodes[0]
        .as_dir
        .get()
        .expect("the first inode's directory reads");
    assert_eq!(dir.entries, b"ABCD");
    assert!(
        inodes[1].block[0].body.get().is_none(),
        "{:?}",
        inodes[1].block[0].body
    );
    assert!(inodes[1].as_dir.get().is_none(), "{:?}", inodes[1].as_dir);
    assert_eq!(
        inodes[1].block[1].body.get().expect("reads").body.0,
        b"EFGH"
    );
    assert_eq!(value.to_bytes().unwrap(), FILE);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(FILE).expect("the interpreter reads it");
    let document = serde_json::to_value(interpreter.document(&read)).unwrap();
    assert_eq!(
        document["inodes"][0]["as_dir"]["entries"],
        serde_json::json!([65, 66, 67, 68])
    );
    assert!(
        document["inodes"][1]["as_dir"]["_error"].is_string(),
        "{document}"
    );
    assert!(
        document["inodes"][1]["block"][0]["body"]["_error"].is_string(),
        "{document}"
    );
    assert_eq!(interpreter.write(&read).unwrap(), FILE);
}
