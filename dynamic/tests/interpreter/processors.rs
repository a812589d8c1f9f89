//! Custom processors (`process: fx.add(key, [1, 2])`), given by the interpreter's caller by
//! name: read, written back and encoded with them, and refused, named, without them.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use serde_json::json;
use skelcodec_dynamic::{Interpreter, LoadError, ProcessArg};
use skelcodec_runtime::process::Process;

use crate::common::interpreter;

/// A schema whose body is stored with each byte raised by `key`.
const SHIFTED: &str = "
meta: {id: shifted}
seq:
  - {id: key, type: u1}
  - {id: body, size: 3, process: 'fx.add(key, [1, 2])'}
  - {id: tail, type: u1}
";

/// `fx.add(key, bytes)`: stores each byte raised by `key`.
struct Add(u8);

impl Process for Add {
    fn decode<'d>(&self, stored: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        Ok(stored.iter().map(|b| b.wrapping_sub(self.0)).collect())
    }
    fn encode<'d>(&self, data: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        Ok(data.iter().map(|b| b.wrapping_add(self.0)).collect())
    }
}

/// Builds `Add` from `(key, bytes)`, as its `new` would take them.
fn add(args: &[ProcessArg]) -> Result<Box<dyn Process>, String> {
    match args {
        [ProcessArg::Int(key), ProcessArg::Bytes(_)] => Ok(Box::new(Add(*key as u8))),
        other => Err(format!("`add` takes (key, bytes), not {other:?}")),
    }
}

/// The key 2, the body `abc` stored raised by it, and a last byte.
const FILE: [u8; 5] = [2, b'c', b'd', b'e', 9];

#[test]
fn a_registered_processor_reads_writes_back_and_encodes() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let interpreter = interpreter(SHIFTED).with_processor("fx.add", {
        let seen = Arc::clone(&seen);
        move |args: &[ProcessArg]| {
            seen.lock().unwrap().push(args.to_vec());
            add(args)
        }
    });
    let value = interpreter.read(&FILE).expect("the file reads");
    let document = serde_json::to_value(interpreter.document(&value)).unwrap();
    assert_eq!(
        document["body"],
        json!({"value": "616263", "stored": "636465"}),
        "{document}"
    );
    // Its arguments as generated code passes them: an integer, a list as bytes.
    assert_eq!(
        seen.lock().unwrap()[0],
        [ProcessArg::Int(2), ProcessArg::Bytes(vec![1, 2])]
    );
    assert_eq!(interpreter.write(&value).expect("it writes"), FILE);
    // An edited body is encoded again by the processor.
    let mut edited = document.clone();
    edited["body"]["value"] = json!("787978");
    let value = interpreter.value_of(&edited).expect("the document encodes");
    let bytes = interpreter.write(&value).expect("it writes");
    assert_eq!(bytes, [2, b'z', b'{', b'z', 9]);
}

#[test]
fn a_processor_not_registered_fails_the_read_naming_it_and_the_field() {
    // Loaded: only a file that reaches the field needs it.
    let error = interpreter(SHIFTED).read(&FILE).expect_err("no processor");
    assert_eq!(error.path(), "body");
    // Where reading stands: after the stored bytes, where the arguments are evaluated.
    assert_eq!(error.offset(), 4);
    assert_eq!(
        error.to_string(),
        "at byte 4, body: the custom processor `fx.add` is not registered (`Interpreter::with_processor`)"
    );
}

#[test]
fn a_factory_refusing_its_arguments_fails_the_read_with_why() {
    let interpreter =
        interpreter(SHIFTED).with_processor("fx.add", |_: &[ProcessArg]| Err("no key".to_owned()));
    let message = interpreter.read(&FILE).expect_err("refused").to_string();
    assert!(
        message.contains("the custom processor `fx.add`: no key"),
        "{message}"
    );
}

#[test]
fn a_caller_without_processors_refuses_the_schema_naming_every_use() {
    match interpreter(SHIFTED).require_processors() {
        Err(LoadError::Unsupported(uses)) => {
            assert_eq!(uses, ["seq[1]: the custom processor `fx.add`"]);
        }
        other => panic!("refused with where it is, got {other:?}"),
    }
    let registered = interpreter(SHIFTED).with_processor("fx.add", add);
    assert!(registered.require_processors().is_ok());
}

/// Whether values of `T` can be shared between threads and across `catch_unwind`.
fn shareable<T: Send + Sync + std::panic::RefUnwindSafe>(_: &T) {}

#[test]
fn an_interpreter_with_processors_is_shared_between_threads() {
    let interpreter: Interpreter = interpreter(SHIFTED).with_processor("fx.add", add);
    shareable(&interpreter);
    std::thread::scope(|s| {
        s.spawn(|| assert!(interpreter.read(&FILE).is_ok()));
    });
}
