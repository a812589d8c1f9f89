//! A parse instance (Kaitai's `instances` with `pos`) that no reader or writer needs: read on
//! its own, so that a failure is the failure of that instance alone, as in Kaitai, where an
//! instance raises only when it is accessed. The file still reads; the document shows the
//! error where the instance is, and the instance's bytes are written back by what holds them
//! (the file's unclaimed bytes).
//!
//! Where its bytes are a known range of the file, it is read on demand, as Kaitai reads every
//! instance: the first time a program, a document, a comparison or a writer asks for it.

use std::sync::{Arc, OnceLock};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Reader;
use crate::error::{Error, ErrorKind, Result};
use crate::on_demand::Detached;
use crate::writer::Held;

/// Key of a failed instance in documents: `{"_error": "at byte 10, …"}`.
const FAILED_KEY: &str = "_error";
/// Key of the bytes of an instance read on demand that failed, which it holds (see
/// [`Instance::held`]): `{"_error": "…", "_bytes": "0909"}`.
const HELD_KEY: &str = "_bytes";
/// Key of a cycle in documents: `{"_cycle": 2048}`, where that value starts.
const CYCLE_KEY: &str = "_cycle";

/// What reading a parse instance gave.
///
/// Compared, shown and written as what reading it gives: [`Instance::resolved`] is never
/// [`Instance::Unread`].
#[derive(Clone)]
pub enum Instance<T> {
    /// Its `if` does not hold: nothing was read (a document's `null`).
    Absent,
    /// The value read, or set by a program: boxed, so that a value holding an instance is
    /// small however large the instance's type ([`Instance::from`] boxes it).
    Read(Box<T>),
    /// Reading it failed with this error (offset, path inside the instance, what was
    /// expected). Written as nothing: its bytes are kept by what holds them.
    Failed(Box<Error>),
    /// It is the value being read around it, which starts at this byte (the same type at the
    /// same position of the same stream): a reference to it, written as nothing.
    Cycle(u64),
    /// Not read yet: read the first time it is asked for ([`Instance::resolved`]).
    Unread(OnDemand<T>),
}

/// An instance to read on demand: where, how, and once read, what it gave. Its clones share
/// them (one allocation per instance, the reader's closure included).
pub struct OnDemand<T>(Arc<dyn Pending<T>>);

/// Where an instance read on demand is, and once read, what it gave.
struct Place<T> {
    at: Detached,
    /// The bytes it is read from, which a writer that only measures claims without reading.
    len: usize,
    value: OnceLock<Instance<T>>,
}

/// A [`Place`] with the closure that reads there, behind one pointer of [`OnDemand`].
struct WithReader<T, F> {
    place: Place<T>,
    read: F,
}

/// What [`OnDemand`] asks of a [`WithReader`], whatever its closure.
trait Pending<T>: Send + Sync {
    fn place(&self) -> &Place<T>;
    fn place_mut(&mut self) -> &mut Place<T>;
    fn read(&self, r: &mut Reader<'_>) -> Result<T>;
}

impl<T: Send + Sync, F> Pending<T> for WithReader<T, F>
where
    F: Fn(&mut Reader<'_>) -> Result<T> + Send + Sync,
{
    fn place(&self) -> &Place<T> {
        &self.place
    }

    fn place_mut(&mut self) -> &mut Place<T> {
        &mut self.place
    }

    fn read(&self, r: &mut Reader<'_>) -> Result<T> {
        (self.read)(r)
    }
}

impl<T> Clone for OnDemand<T> {
    fn clone(&self) -> Self {
        OnDemand(self.0.clone())
    }
}

impl<T: Send + Sync + 'static> OnDemand<T> {
    /// The instance whose `len` bytes are at `at`, read there by `read`.
    fn new<F>(at: Detached, len: usize, value: OnceLock<Instance<T>>, read: F) -> Self
    where
        F: Fn(&mut Reader<'_>) -> Result<T> + Send + Sync + 'static,
    {
        let place = Place { at, len, value };
        OnDemand(Arc::new(WithReader { place, read }))
    }
}

impl<T> OnDemand<T> {
    /// Where it is and what it gave, if it was read.
    fn place(&self) -> &Place<T> {
        self.0.place()
    }

    /// What reading it gives, read the first time.
    fn resolved(&self) -> &Instance<T> {
        self.place().value.get_or_init(|| {
            Instance::from_read(Reader::read_detached(&self.place().at, |r| self.0.read(r)))
        })
    }

    /// What it gave, taken out when no clone shares it, copied otherwise.
    fn into_resolved(mut self) -> Instance<T>
    where
        T: Clone,
    {
        match Arc::get_mut(&mut self.0) {
            Some(pending) => pending.place_mut().value.take(),
            None => self.place().value.get().cloned(),
        }
        .unwrap_or(Instance::Absent)
    }
}

impl<T> Instance<T> {
    /// The instance whose `len` bytes start at `r`'s position, read by `read` there: on
    /// demand when `r` reads a range of a file that can be kept (see [`Reader::detach`]), at
    /// once otherwise. Bytes that are not there make it fail at once.
    pub fn on_demand<F>(r: &Reader<'_>, len: i64, read: F) -> Self
    where
        T: Send + Sync + 'static,
        F: Fn(&mut Reader<'_>) -> Result<T> + Send + Sync + 'static,
    {
        let len = match crate::arith::length(len, r).and_then(|len| r.ahead(len)) {
            Ok(len) => len,
            Err(e) => return Instance::from_read(Err(e)),
        };
        match r.detach() {
            Some(at) => {
                r.note_unread(len);
                Instance::Unread(OnDemand::new(at, len, OnceLock::new(), read))
            }
            None => {
                r.note_placed(len);
                Instance::from_read(read(&mut r.clone()))
            }
        }
    }

    /// An instance read on demand that failed with `error`, holding `bytes` (see
    /// [`Instance::held`]), as a document gives it back.
    fn failed_holding(error: Error, bytes: &[u8]) -> Self
    where
        T: Send + Sync + 'static,
    {
        let at = Detached::over(bytes);
        let value = OnceLock::from(Instance::Failed(Box::new(error.clone())));
        Instance::Unread(OnDemand::new(at, bytes.len(), value, move |_| {
            Err(error.clone())
        }))
    }

    /// The instance a read gave, flattening what reading it on demand gave.
    pub fn from_result(read: Result<Instance<T>>) -> Self {
        read.unwrap_or_else(|e| Instance::from_read(Err(e)))
    }

    /// What the instance is, read now if it was not yet: never [`Instance::Unread`].
    pub fn resolved(&self) -> &Instance<T> {
        match self {
            Instance::Unread(on_demand) => on_demand.resolved(),
            resolved => resolved,
        }
    }

    /// The bytes an instance read on demand holds without a value: a writer that only
    /// measures what the fields claim ([`crate::Writer::for_coverage`]) claims them for one
    /// still unread, without reading it; one that failed or is a cycle is written back as
    /// read, since its bytes were claimed for it.
    pub fn held(&self, w: &crate::Writer) -> Option<Held<'_>> {
        let Instance::Unread(on_demand) = self else {
            return None;
        };
        let place = on_demand.place();
        if place.value.get().is_none() && w.is_for_coverage() {
            return Some(Held::Claimed(place.len));
        }
        match on_demand.resolved() {
            Instance::Read(_) => None,
            _ => Some(Held::Raw(place.at.bytes(place.len))),
        }
    }

    /// The instance a read gave: a failure is kept as the instance's own, and a cycle as a
    /// reference.
    pub fn from_read(read: Result<T>) -> Self {
        match read {
            Ok(value) => Instance::Read(Box::new(value)),
            Err(e) => match e.kind() {
                ErrorKind::Cycle { offset } if e.has_no_path() => Instance::Cycle(*offset),
                _ => Instance::Failed(Box::new(e)),
            },
        }
    }

    /// The value, when it reads.
    pub fn get(&self) -> Option<&T> {
        match self.resolved() {
            Instance::Read(value) => Some(value),
            _ => None,
        }
    }

    /// True when it was read, or is absent because its `if` does not hold: the sizes that
    /// measure it can be told (one that failed, or is a cycle, measures nothing).
    pub fn is_measured(&self) -> bool {
        matches!(self.resolved(), Instance::Read(_) | Instance::Absent)
    }

    /// The value a writer writes, refusing an instance that is absent where its `if` holds or
    /// there where it does not (reading the output would not find it). A failed instance and a
    /// cycle write nothing.
    pub fn written(&self, cond: bool, w: &crate::Writer) -> Result<Option<&T>> {
        match (cond, self.resolved()) {
            (true, Instance::Read(value)) => Ok(Some(&**value)),
            (true, Instance::Failed(_) | Instance::Cycle(_) | Instance::Unread(_))
            | (false, Instance::Absent) => Ok(None),
            // The two remaining cases are the two mismatches: present exactly when it does not hold.
            (holds, _) => Err(w.error(crate::ErrorKind::ConditionMismatch { present: !holds })),
        }
    }
}

impl<T: Clone> Instance<T> {
    /// The value, to edit, when it reads. One that does not read keeps the bytes it holds,
    /// to be written back as they are.
    pub fn get_mut(&mut self) -> Option<&mut T> {
        let reads = |on_demand: &OnDemand<T>| matches!(on_demand.resolved(), Instance::Read(_));
        if matches!(self, Instance::Unread(on_demand) if reads(on_demand))
            && let Instance::Unread(on_demand) = std::mem::replace(self, Instance::Absent)
        {
            *self = on_demand.into_resolved();
        }
        match self {
            Instance::Read(value) => Some(value),
            _ => None,
        }
    }
}

impl<T: PartialEq> PartialEq for Instance<T> {
    fn eq(&self, other: &Self) -> bool {
        match (self.resolved(), other.resolved()) {
            (Instance::Absent, Instance::Absent) => true,
            (Instance::Read(a), Instance::Read(b)) => a == b,
            // As shown: a document gives back the offset, path and message, not their kinds.
            (Instance::Failed(a), Instance::Failed(b)) => a.to_string() == b.to_string(),
            (Instance::Cycle(a), Instance::Cycle(b)) => a == b,
            _ => false,
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Instance<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.resolved() {
            Instance::Absent => f.write_str("Absent"),
            Instance::Read(value) => f.debug_tuple("Read").field(value).finish(),
            Instance::Failed(error) => f.debug_tuple("Failed").field(error).finish(),
            Instance::Cycle(offset) => f.debug_tuple("Cycle").field(offset).finish(),
            Instance::Unread(_) => f.write_str("Unread"),
        }
    }
}

impl<T: Serialize> Serialize for Instance<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self.resolved() {
            Instance::Absent => s.serialize_none(),
            Instance::Read(value) => value.serialize(s),
            Instance::Failed(error) => {
                let held = self.held(&crate::Writer::new());
                let mut map = s.serialize_map(Some(1 + usize::from(held.is_some())))?;
                map.serialize_entry(FAILED_KEY, &error.to_string())?;
                if let Some(Held::Raw(bytes)) = held {
                    map.serialize_entry(HELD_KEY, &crate::bytes::to_hex(bytes))?;
                }
                map.end()
            }
            Instance::Cycle(offset) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(CYCLE_KEY, offset)?;
                map.end()
            }
            Instance::Unread(_) => Err(serde::ser::Error::custom(
                "an instance read on demand resolves to what it gave",
            )),
        }
    }
}

impl<'de, T: for<'a> Deserialize<'a> + Send + Sync + 'static> Deserialize<'de> for Instance<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // Kaitai names cannot start with `_`, so a value never has these keys.
        let tree = serde_json::Value::deserialize(d)?;
        let only = |key: &str| match &tree {
            serde_json::Value::Object(map) if map.len() == 1 => map.get(key),
            _ => None,
        };
        if tree.is_null() {
            return Ok(Instance::Absent);
        }
        let failure = |message: &serde_json::Value| match message.as_str() {
            Some(shown) => shown
                .parse::<Error>()
                .map_err(|e| D::Error::custom(format!("`_error`: {e}"))),
            None => Err(D::Error::custom("`_error` must be a string")),
        };
        if let Some(message) = only(FAILED_KEY) {
            return Ok(Instance::Failed(Box::new(failure(message)?)));
        }
        if let serde_json::Value::Object(map) = &tree
            && map.len() == 2
            && let (Some(message), Some(bytes)) = (map.get(FAILED_KEY), map.get(HELD_KEY))
        {
            let Some(bytes) = bytes.as_str().and_then(|b| crate::bytes::from_hex(b).ok()) else {
                return Err(D::Error::custom("`_bytes` must be hexadecimal"));
            };
            return Ok(Instance::failed_holding(failure(message)?, &bytes));
        }
        if let Some(offset) = only(CYCLE_KEY) {
            return match offset.as_u64() {
                Some(offset) => Ok(Instance::Cycle(offset)),
                None => Err(D::Error::custom("`_cycle` must be a byte offset")),
            };
        }
        T::deserialize(tree)
            .map(Instance::from)
            .map_err(D::Error::custom)
    }
}

impl<T> From<T> for Instance<T> {
    fn from(value: T) -> Self {
        Instance::Read(Box::new(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_and_cycles_are_kept_and_documented() {
        let failed =
            Instance::<u8>::from_read(Err(
                Error::new(9, ErrorKind::Invalid("bad".into())).in_field("x")
            ));
        let Instance::Failed(error) = &failed else {
            panic!("{failed:?}")
        };
        assert_eq!((error.offset(), error.path()), (9, "x".to_owned()));
        assert_eq!(error.to_string(), "at byte 9, x: bad");
        let cycle = Instance::<u8>::from_read(Err(Error::new(4, ErrorKind::Cycle { offset: 4 })));
        assert_eq!(cycle, Instance::Cycle(4));
        // A cycle met deeper inside is that value's failure.
        let deeper = Instance::<u8>::from_read(Err(
            Error::new(4, ErrorKind::Cycle { offset: 4 }).in_field("y")
        ));
        assert!(matches!(deeper, Instance::Failed(_)));
        for (instance, json) in [
            (Instance::from(7u8), "7"),
            (Instance::Absent, "null"),
            (failed, r#"{"_error":"at byte 9, x: bad"}"#),
            (cycle, r#"{"_cycle":4}"#),
        ] {
            assert_eq!(serde_json::to_string(&instance).unwrap(), json);
            assert_eq!(
                serde_json::from_str::<Instance<u8>>(json).unwrap(),
                instance
            );
        }
        assert!(serde_json::from_str::<Instance<u8>>(r#"{"_error":1}"#).is_err());
        assert!(serde_json::from_str::<Instance<u8>>(r#"{"_error":"bad"}"#).is_err());
        let unlocated: Instance<u8> =
            serde_json::from_str(r#"{"_error":"at byte 3: bad"}"#).unwrap();
        assert!(
            matches!(&unlocated, Instance::Failed(e) if e.offset() == 3 && e.path().is_empty())
        );
        assert!(serde_json::from_str::<Instance<u8>>("300").is_err());
    }

    #[test]
    fn a_failure_holding_bytes_keeps_them_when_asked_for_editing() {
        let error = Error::new(1, ErrorKind::Invalid("bad".into()));
        let mut failed = Instance::<u8>::failed_holding(error, &[1, 2, 3]);
        assert_eq!(failed.get_mut(), None);
        let w = crate::Writer::new();
        assert!(matches!(failed.held(&w), Some(Held::Raw([1, 2, 3]))));
    }

    #[test]
    fn writers_refuse_what_would_not_read_back() {
        let w = crate::Writer::new();
        assert_eq!(Instance::from(1u8).written(true, &w).unwrap(), Some(&1));
        assert_eq!(
            Instance::<u8>::Failed(Box::new(Error::new(0, ErrorKind::Invalid(String::new()))))
                .written(true, &w)
                .unwrap(),
            None
        );
        assert_eq!(Instance::<u8>::Absent.written(false, &w).unwrap(), None);
        assert!(Instance::<u8>::Absent.written(true, &w).is_err());
        assert!(Instance::from(1u8).written(false, &w).is_err());
        assert!(Instance::<u8>::Cycle(0).written(false, &w).is_err());
    }
}
