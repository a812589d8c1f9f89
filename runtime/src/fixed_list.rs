//! Lists of elements of a fixed layout (key frames, vertices, counted numbers), kept as the
//! bytes they were read from and decoded on first access.
//!
//! Reading such a list allocates nothing when the file is kept ([`crate::Reader::keep`]): it
//! is a view of the file, its length is known, and its elements are decoded, all at once
//! into one allocation, the first time they are looked at. Writing a list that was never
//! changed copies its bytes. Any change (through `DerefMut` or a `Vec`-like method) makes it a
//! `Vec` of the value's own, as a list built in code is from the start.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::on_demand::Input;

/// A list of elements of a fixed layout: the bytes it was read from, decoded on first access,
/// or a `Vec` of its own once changed. Reads as `[T]`. (Its elements are `'static`, as the
/// values of a generated codec are, so that it may refer to their layout.)
pub struct FixedList<T: 'static>(Repr<T>);

enum Repr<T: 'static> {
    Owned(Vec<T>),
    Stored(Stored<T>),
}

/// How elements of one type are stored: their size in bytes, and how a run of them decodes.
/// A list holds a reference to one (a constant of the generated code), not the two.
pub struct FixedLayout<T> {
    size: usize,
    decode: fn(&[u8], usize) -> Vec<T>,
}

impl<T> FixedLayout<T> {
    /// Elements of `size` bytes each, of which `decode(bytes, len)` makes exactly `len`
    /// values. `decode` must be a pure function of the bytes, the inverse of the element's
    /// encoding, so that the stored bytes can be written in place of the values.
    pub const fn new(size: usize, decode: fn(&[u8], usize) -> Vec<T>) -> Self {
        FixedLayout { size, decode }
    }

    /// The size of one element in bytes.
    pub const fn size(&self) -> usize {
        self.size
    }

    /// `len` elements decoded from `bytes`.
    pub fn decode(&self, bytes: &[u8], len: usize) -> Vec<T> {
        (self.decode)(bytes, len)
    }
}

/// `len` elements as stored at `start` in a kept file, and what they decode to once asked.
/// Positions and counts are 32-bit, which keeps a list of a value at 48 bytes; a list past
/// 4 GiB of a file is decoded as it is read instead.
struct Stored<T: 'static> {
    input: Arc<Input>,
    start: u32,
    len: u32,
    layout: &'static FixedLayout<T>,
    decoded: OnceLock<Box<[T]>>,
}

impl<T> FixedList<T> {
    /// `len` elements stored at `start` in `input` as `layout` says, or `None` when they do
    /// not lie in it or a position does not fit 32 bits.
    pub(crate) fn stored(
        input: Arc<Input>,
        start: usize,
        len: usize,
        layout: &'static FixedLayout<T>,
    ) -> Option<Self> {
        let end = len.checked_mul(layout.size)?.checked_add(start)?;
        if end > input.bytes().len() || u32::try_from(end).is_err() {
            return None;
        }
        Some(FixedList(Repr::Stored(Stored {
            input,
            start: start as u32,
            len: len as u32,
            layout,
            decoded: OnceLock::new(),
        })))
    }

    /// An empty list.
    pub const fn new() -> Self {
        FixedList(Repr::Owned(Vec::new()))
    }

    /// The number of elements, without decoding them.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Owned(items) => items.len(),
            Repr::Stored(stored) => stored.len as usize,
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements, decoded the first time.
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            Repr::Owned(items) => items,
            Repr::Stored(stored) => stored.decoded.get_or_init(|| stored.decode_all().into()),
        }
    }

    /// The bytes the elements were read from, while the list is unchanged: what writing it
    /// produces.
    pub fn stored_bytes(&self) -> Option<&[u8]> {
        match &self.0 {
            Repr::Owned(_) => None,
            Repr::Stored(stored) => Some(stored.bytes()),
        }
    }

    /// Whether the list is still the bytes it was read from, viewed in the file (not copied).
    pub fn is_shared(&self) -> bool {
        matches!(&self.0, Repr::Stored(_))
    }

    /// The elements as a `Vec` of the value's own, decoded the first time: the list is no
    /// longer its stored bytes.
    pub fn as_mut_vec(&mut self) -> &mut Vec<T> {
        if let Repr::Stored(stored) = &mut self.0 {
            let items = stored.take_decoded();
            self.0 = Repr::Owned(items);
        }
        match &mut self.0 {
            Repr::Owned(items) => items,
            Repr::Stored(_) => unreachable!("made owned above"),
        }
    }

    /// The elements as a `Vec`.
    pub fn into_vec(mut self) -> Vec<T> {
        std::mem::take(self.as_mut_vec())
    }

    /// Appends an element.
    pub fn push(&mut self, item: T) {
        self.as_mut_vec().push(item);
    }

    /// Removes the last element.
    pub fn pop(&mut self) -> Option<T> {
        self.as_mut_vec().pop()
    }

    /// Inserts an element at `index` (panics past the end, as `Vec::insert`).
    pub fn insert(&mut self, index: usize, item: T) {
        self.as_mut_vec().insert(index, item);
    }

    /// Removes the element at `index` (panics past the end, as `Vec::remove`).
    pub fn remove(&mut self, index: usize) -> T {
        self.as_mut_vec().remove(index)
    }

    /// Keeps the first `len` elements.
    pub fn truncate(&mut self, len: usize) {
        self.as_mut_vec().truncate(len);
    }

    /// Keeps the elements `keep` holds for.
    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.as_mut_vec().retain(keep);
    }

    /// Drops every element.
    pub fn clear(&mut self) {
        self.0 = Repr::Owned(Vec::new());
    }
}

impl<T> Stored<T> {
    fn bytes(&self) -> &[u8] {
        let start = self.start as usize;
        // In range: checked when the list was made, and the file does not change.
        let end = start + self.len as usize * self.layout.size;
        &self.input.bytes()[start..end]
    }

    fn decode_all(&self) -> Vec<T> {
        self.layout.decode(self.bytes(), self.len as usize)
    }

    fn take_decoded(&mut self) -> Vec<T> {
        match self.decoded.take() {
            Some(items) => items.into_vec(),
            None => self.decode_all(),
        }
    }
}

impl<T: Clone> FixedList<T> {
    /// Appends clones of `items`.
    pub fn extend_from_slice(&mut self, items: &[T]) {
        self.as_mut_vec().extend_from_slice(items);
    }
}

impl<T> Default for FixedList<T> {
    fn default() -> Self {
        FixedList::new()
    }
}

impl<T: Clone> Clone for FixedList<T> {
    fn clone(&self) -> Self {
        FixedList(match &self.0 {
            Repr::Owned(items) => Repr::Owned(items.clone()),
            Repr::Stored(stored) => Repr::Stored(Stored {
                input: stored.input.clone(),
                start: stored.start,
                len: stored.len,
                layout: stored.layout,
                decoded: stored.decoded.clone(),
            }),
        })
    }
}

impl<T> std::ops::Deref for FixedList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> std::ops::DerefMut for FixedList<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_vec()
    }
}

impl<T> AsRef<[T]> for FixedList<T> {
    fn as_ref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> From<Vec<T>> for FixedList<T> {
    fn from(items: Vec<T>) -> Self {
        FixedList(Repr::Owned(items))
    }
}

impl<T: Clone> From<&[T]> for FixedList<T> {
    fn from(items: &[T]) -> Self {
        FixedList(Repr::Owned(items.to_vec()))
    }
}

impl<T, const N: usize> From<[T; N]> for FixedList<T> {
    fn from(items: [T; N]) -> Self {
        FixedList(Repr::Owned(items.into()))
    }
}

impl<T> From<FixedList<T>> for Vec<T> {
    fn from(list: FixedList<T>) -> Self {
        list.into_vec()
    }
}

impl<T> FromIterator<T> for FixedList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        FixedList(Repr::Owned(iter.into_iter().collect()))
    }
}

impl<T> Extend<T> for FixedList<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.as_mut_vec().extend(iter);
    }
}

impl<T> IntoIterator for FixedList<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a, T> IntoIterator for &'a FixedList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T> IntoIterator for &'a mut FixedList<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_vec().iter_mut()
    }
}

impl<T: PartialEq> PartialEq for FixedList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.as_slice() == other.as_slice()
    }
}

impl<T: Eq> Eq for FixedList<T> {}

impl<T: PartialEq> PartialEq<Vec<T>> for FixedList<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq> PartialEq<[T]> for FixedList<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for FixedList<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T: std::hash::Hash> std::hash::Hash for FixedList<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: fmt::Debug> fmt::Debug for FixedList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Serialize> Serialize for FixedList<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for FixedList<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::deserialize(deserializer).map(FixedList::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAIRS: FixedLayout<u16> = FixedLayout::new(2, |bytes, len| {
        crate::fields::decode_fixed(bytes, len, |b| u16::from_le_bytes(*b))
    });

    fn stored(bytes: &[u8]) -> FixedList<u16> {
        let input = Input::owned(bytes.to_vec());
        FixedList::stored(input, 0, bytes.len() / 2, &PAIRS).expect("in the file")
    }

    #[test]
    fn a_list_is_as_small_as_a_view_and_its_cache() {
        assert_eq!(std::mem::size_of::<FixedList<u16>>(), 48);
    }

    #[test]
    fn a_list_lies_in_its_file_or_is_not_made() {
        let input = Input::owned(vec![1, 0, 2, 0, 3, 0]);
        assert!(FixedList::stored(input.clone(), 2, 2, &PAIRS).is_some());
        assert!(FixedList::stored(input.clone(), 2, 3, &PAIRS).is_none());
        assert!(FixedList::stored(input, 0, usize::MAX, &PAIRS).is_none());
    }

    #[test]
    fn reads_as_its_elements_and_keeps_its_bytes_until_changed() {
        let list = stored(&[1, 0, 2, 0, 3, 0]);
        assert_eq!(list.len(), 3);
        assert_eq!(list, [1, 2, 3]);
        assert_eq!(list.stored_bytes(), Some(&[1, 0, 2, 0, 3, 0][..]));
        let mut edited = list.clone();
        edited[1] = 7;
        assert_eq!(edited, vec![1, 7, 3]);
        assert_eq!(edited.stored_bytes(), None);
        // The clone's edit left the original as it was read.
        assert_eq!(list.stored_bytes(), Some(&[1, 0, 2, 0, 3, 0][..]));
        assert_ne!(list, edited);
    }

    #[test]
    fn serializes_and_deserializes_as_a_list() {
        let list = stored(&[1, 0, 2, 0]);
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, "[1,2]");
        let back: FixedList<u16> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, list);
        assert_eq!(back.stored_bytes(), None);
    }

    #[test]
    fn vec_like_changes_make_it_owned() {
        let mut list = stored(&[1, 0, 2, 0]);
        list.push(3);
        list.retain(|&v| v != 2);
        assert_eq!(list.into_vec(), vec![1, 3]);
        let mut list = stored(&[1, 0]);
        list.clear();
        assert!(list.is_empty() && list.stored_bytes().is_none());
    }
}
