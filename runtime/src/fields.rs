//! What generated field readers and writers call. Repeated fixed-size elements are read and
//! written in bulk with one bounds check; others element by element, with the allocation
//! bounded by the bytes that remain.

use crate::arith::length;
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::fixed_list::{FixedLayout, FixedList};
use crate::reader::Reader;
use crate::writer::Writer;

/// Reads `count` fixed-size elements of `N` bytes: one bounds check for the whole array, then
/// decoding at constant offsets. Elements of no bytes count as one byte each for the bound, so
/// that a hostile count cannot make work the input does not pay for.
#[inline]
pub fn read_fixed<T, const N: usize>(
    r: &mut Reader<'_>,
    count: i64,
    decode: impl Fn(&[u8; N]) -> T,
) -> Result<Vec<T>> {
    let (count, bytes) = fixed_elements(r, count, N)?;
    Ok(decode_fixed(bytes, count, decode))
}

/// `len` elements of `N` bytes decoded from `bytes` at constant offsets (elements of no bytes
/// decode from nothing).
#[inline(always)]
pub fn decode_fixed<T, const N: usize>(
    bytes: &[u8],
    len: usize,
    decode: impl Fn(&[u8; N]) -> T,
) -> Vec<T> {
    if N == 0 {
        return (0..len).map(|_| decode(&[0; N])).collect();
    }
    let (chunks, _) = bytes.as_chunks::<N>();
    chunks.iter().take(len).map(decode).collect()
}

/// Reads `count` elements stored as `layout` says as a [`FixedList`]. When the file is kept
/// ([`Reader::view`], [`Reader::keep_file_when_cheaper`]), the list is a view of the bytes
/// they take, decoded the first time they are looked at: nothing is decoded or allocated here.
/// Otherwise they are decoded now, rather than copied and decoded later.
pub fn read_fixed_list<T>(
    r: &mut Reader<'_>,
    count: i64,
    layout: &'static FixedLayout<T>,
) -> Result<FixedList<T>> {
    let (count, bytes) = fixed_elements(r, count, layout.size())?;
    if count == 0 {
        return Ok(FixedList::new());
    }
    r.keep_file_when_cheaper();
    if let Some((input, start)) = r.kept_at(bytes)
        && let Some(list) = FixedList::stored(input.clone(), start, count, layout)
    {
        return Ok(list);
    }
    Ok(FixedList::from(layout.decode(bytes, count)))
}

/// Writes a [`FixedList`]: its stored bytes as they are while it is unchanged, else each
/// element as [`write_fixed`] does.
#[inline]
pub fn write_fixed_list<T, const N: usize>(
    w: &mut Writer,
    list: &FixedList<T>,
    encode: impl Fn(&T, &mut [u8; N]),
) {
    match list.stored_bytes() {
        Some(bytes) => w.bytes(bytes),
        None => write_fixed(w, list, encode),
    }
}

/// The bytes of `count` elements of `size` bytes each (see [`read_fixed`]), consumed, with the
/// count: one bounds check for the whole list; elements of no bytes count as one byte each.
pub fn fixed_elements<'a>(
    r: &mut Reader<'a>,
    count: i64,
    size: usize,
) -> Result<(usize, &'a [u8])> {
    let count = length(count, r)?;
    if size == 0 {
        if count > r.remaining() {
            return Err(r.error(ErrorKind::CountTooLarge {
                count: count as u64,
                elem_size: 0,
                remaining: r.remaining() as u64,
            }));
        }
        return Ok((count, &[]));
    }
    Ok((count, r.elements(count as u64, size)?))
}

#[cfg(test)]
mod empty_elements {
    use super::*;

    #[test]
    fn empty_elements_are_bounded_by_the_input_and_write_nothing() {
        let data = [0u8; 3];
        let mut r = Reader::new(&data);
        assert_eq!(read_fixed(&mut r, 3, |_: &[u8; 0]| ()).unwrap().len(), 3);
        assert_eq!(r.pos(), 0);
        assert!(read_fixed(&mut r, 1 << 40, |_: &[u8; 0]| ()).is_err());
        let mut w = Writer::new();
        write_fixed(&mut w, &[(), ()], |_, _: &mut [u8; 0]| {});
        assert_eq!(w.pos(), 0);
    }
}

/// Writes fixed-size elements of `N` bytes into one reserved block.
#[inline]
pub fn write_fixed<T, const N: usize>(
    w: &mut Writer,
    items: &[T],
    encode: impl Fn(&T, &mut [u8; N]),
) {
    if N == 0 {
        return;
    }
    let out = w.reserve_slice(items.len() * N);
    let (chunks, _) = out.as_chunks_mut::<N>();
    for (chunk, item) in chunks.iter_mut().zip(items) {
        encode(item, chunk);
    }
}

/// Reads `count` elements one at a time; `read` gets each element's index (Kaitai `_index`).
/// A count that cannot fit in the remaining input (each element takes at least `min_size`
/// bytes) fails before anything is allocated.
pub fn read_counted<'a, T>(
    r: &mut Reader<'a>,
    count: i64,
    min_size: usize,
    mut read: impl FnMut(&mut Reader<'a>, usize) -> Result<T>,
) -> Result<Vec<T>> {
    read_counted_seeing(r, count, min_size, |r, prior| read(r, prior.len()))
}

/// [`read_counted`], where `read` gets the elements read before (`groups[_index - 1]` in an
/// element's arguments); its index is their number.
pub fn read_counted_seeing<'a, T>(
    r: &mut Reader<'a>,
    count: i64,
    min_size: usize,
    mut read: impl FnMut(&mut Reader<'a>, &[T]) -> Result<T>,
) -> Result<Vec<T>> {
    let count = length(count, r)?;
    if (count as u128) * (min_size as u128) > r.remaining() as u128 {
        return Err(r.error(ErrorKind::CountTooLarge {
            count: count as u64,
            elem_size: min_size as u64,
            remaining: r.remaining() as u64,
        }));
    }
    let mut items = Vec::with_capacity(r.capacity_hint(count as u64, min_size));
    for index in 0..count {
        let item = read(r, &items).at_index(index)?;
        items.push(item);
    }
    Ok(items)
}

/// Reads elements until the end of the stream. An element that consumes nothing would loop
/// forever, so it is an error.
pub fn read_to_eos<'a, T>(
    r: &mut Reader<'a>,
    mut read: impl FnMut(&mut Reader<'a>, usize) -> Result<T>,
) -> Result<Vec<T>> {
    read_to_eos_seeing(r, |r, prior| read(r, prior.len()))
}

/// [`read_to_eos`], where `read` gets the elements read before.
pub fn read_to_eos_seeing<'a, T>(
    r: &mut Reader<'a>,
    mut read: impl FnMut(&mut Reader<'a>, &[T]) -> Result<T>,
) -> Result<Vec<T>> {
    let mut items = Vec::new();
    while !r.is_eof() {
        let start = r.bit_pos();
        let item = read(r, &items).at_index(items.len())?;
        items.push(item);
        if r.bit_pos() == start {
            return Err(r
                .error(ErrorKind::Invalid(
                    "element consumed nothing; `repeat: eos` would never end".into(),
                ))
                .at_index(items.len() - 1));
        }
    }
    Ok(items)
}

/// Reads elements until `done` holds for the last one read (Kaitai `repeat: until`); `done`
/// gets its index too (`_index` in the condition), and fails as its expression does.
pub fn read_until<'a, T>(
    r: &mut Reader<'a>,
    mut read: impl FnMut(&mut Reader<'a>, usize) -> Result<T>,
    done: impl FnMut(&T, usize, &Reader<'a>) -> Result<bool>,
) -> Result<Vec<T>> {
    read_until_seeing(r, |r, prior| read(r, prior.len()), done)
}

/// [`read_until`], where `read` gets the elements read before.
pub fn read_until_seeing<'a, T>(
    r: &mut Reader<'a>,
    mut read: impl FnMut(&mut Reader<'a>, &[T]) -> Result<T>,
    mut done: impl FnMut(&T, usize, &Reader<'a>) -> Result<bool>,
) -> Result<Vec<T>> {
    let mut items = Vec::new();
    loop {
        let start = r.bit_pos();
        let item = read(r, &items).at_index(items.len())?;
        let finished = done(&item, items.len(), r).at_index(items.len())?;
        items.push(item);
        if finished {
            return Ok(items);
        }
        if r.bit_pos() == start {
            return Err(r
                .error(ErrorKind::Invalid(
                    "element consumed nothing; `repeat: until` would never end".into(),
                ))
                .at_index(items.len() - 1));
        }
    }
}

/// Reads a list's elements once more, each from where it started (`starts`, byte positions),
/// now that the whole list is known: their instances use the list itself (`_parent.files[idx +
/// 1]`), which Kaitai evaluates only once the list is complete. An element must end where it
/// ended the first time (its sequence cannot depend on the elements after it), and the reader
/// ends after the list again.
pub fn read_again<'a, T>(
    r: &mut Reader<'a>,
    starts: &[usize],
    first: Vec<T>,
    mut read: impl FnMut(&mut Reader<'a>, usize, &[T]) -> Result<T>,
) -> Result<Vec<T>> {
    let end = byte_start(r)?;
    let mut items = Vec::with_capacity(first.len());
    for (index, &start) in starts.iter().enumerate() {
        r.seek(start)?;
        let item = read(r, index, &first).at_index(index)?;
        if r.pos() != starts.get(index + 1).copied().unwrap_or(end) {
            return Err(r
                .error(ErrorKind::Invalid(
                    "element reads differently once the list is complete".into(),
                ))
                .at_index(index));
        }
        items.push(item);
    }
    r.seek(end)?;
    Ok(items)
}

/// Where the next element of a list read twice ([`read_again`]) starts.
pub fn element_start(r: &Reader<'_>, starts: &mut Vec<usize>) -> Result<()> {
    starts.push(byte_start(r)?);
    Ok(())
}

/// Where a value read twice starts: refused inside a partly read byte, which a second read
/// could not return to.
pub fn byte_start(r: &Reader<'_>) -> Result<usize> {
    if r.bit_pos() != r.pos() as u64 * 8 {
        return Err(r.error(ErrorKind::Invalid(
            "a value read twice must start on a byte boundary".into(),
        )));
    }
    Ok(r.pos())
}

/// Reads a value once more from `start`, where it first ended at `end`, now that the values
/// its instances use are read (Kaitai evaluates instances lazily), and returns to where the
/// reader was. It must end where it ended the first time.
pub fn read_once_more<'a, T>(
    r: &mut Reader<'a>,
    start: usize,
    end: usize,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let here = byte_start(r)?;
    r.seek(start)?;
    let value = read(r)?;
    if r.pos() != end {
        return Err(r.error(ErrorKind::Invalid(
            "value reads differently once the values its instances use are read".into(),
        )));
    }
    r.seek(here)?;
    Ok(value)
}

/// Before writing a counted list: the count the reader will use must equal the list's length,
/// or the written file would not read back. Derived counts are fixed by `normalize()`.
pub fn check_count(count: i64, len: usize, w: &Writer) -> Result<()> {
    if usize::try_from(count).ok() == Some(len) {
        Ok(())
    } else {
        Err(encode_error(
            w,
            format!(
                "the count is {count} but the list has {len} elements (normalize() recomputes a derived count)"
            ),
        ))
    }
}

/// Before writing a `repeat: until` list: the reader reads an element, then stops when `done`
/// holds for it, so `done` must hold for the last element and for no other, and the list
/// cannot be empty.
pub fn check_until<T>(
    items: &[T],
    w: &Writer,
    mut done: impl FnMut(&T, usize) -> bool,
) -> Result<()> {
    let Some(last) = items.len().checked_sub(1) else {
        return Err(encode_error(
            w,
            "the list is empty, but `repeat: until` reads an element before it tests its condition"
                .into(),
        ));
    };
    for (index, item) in items.iter().enumerate() {
        let stops = done(item, index);
        if stops != (index == last) {
            let message = match stops {
                true => {
                    "the `repeat-until` condition holds for this element, so the reader would stop here"
                }
                false => {
                    "the `repeat-until` condition does not hold for the last element, so the reader would read on"
                }
            };
            return Err(encode_error(w, message.into()).at_index(index));
        }
    }
    Ok(())
}

/// Before writing a sized value: its byte length must equal the size the reader will use.
pub fn check_len(expected: i64, len: usize, w: &Writer) -> Result<()> {
    if usize::try_from(expected).ok() == Some(len) {
        Ok(())
    } else {
        Err(encode_error(
            w,
            format!(
                "the size is {expected} but the value has {len} bytes (normalize() recomputes a derived size)"
            ),
        ))
    }
}

/// The structure passed as the argument `param`, which the schema's expression may leave
/// absent (an index past the end of a list, a field whose `if` failed): Kaitai fails there,
/// and so do the reader and the writer, at byte `offset`.
pub fn present_argument<'a, T: ?Sized>(
    value: Option<&'a T>,
    param: &'static str,
    offset: usize,
) -> Result<&'a T> {
    value.ok_or_else(|| {
        Error::new(
            offset as u64,
            ErrorKind::Invalid(format!("the argument `{param}` names no value")),
        )
    })
}

/// An encode error at the writer's position.
#[cold]
pub fn encode_error(w: &Writer, message: String) -> Error {
    w.error(ErrorKind::Encode(message))
}

/// Before writing a field with an `if` condition: the value must hold the field exactly when
/// the condition holds, or the reader of the output would not find it, or find what is not
/// there.
pub fn check_condition(holds: bool, present: bool, w: &Writer) -> Result<()> {
    match holds == present {
        true => Ok(()),
        false => Err(w.error(ErrorKind::ConditionMismatch { present })),
    }
}

/// A value whose type chooses its byte order (`meta/endian` `switch-on`) by a selector of no
/// case (`value`, as `Debug` shows it): it cannot be written, as the reader could not read it
/// ([`ErrorKind::UndecidedEndianness`]).
#[cold]
#[inline(never)]
pub fn undecided_byte_order(w: &Writer, value: String) -> Error {
    encode_error(w, ErrorKind::UndecidedEndianness { value }.to_string())
}

/// A switch's value that holds the case `held` where its selector (as the schema writes it:
/// `frame_type`) calls for `called`.
#[cold]
#[inline(never)]
pub fn case_mismatch(w: &Writer, selector: &str, called: &str, held: &str) -> Error {
    w.error(ErrorKind::CaseMismatch {
        selector: selector.into(),
        called: called.into(),
        held: held.into(),
    })
}

/// A switch whose selector matches none of its cases: no value can be written for it.
#[cold]
#[inline(never)]
pub fn no_case_matches(w: &Writer) -> Error {
    w.error(ErrorKind::NoCaseMatches)
}

/// A value that keeps the argument `read` it was read with but is written with `written`
/// (both shown as `Debug` shows them).
#[cold]
#[inline(never)]
pub fn kept_argument_changed(
    w: &Writer,
    read: &dyn std::fmt::Debug,
    written: &dyn std::fmt::Debug,
) -> Error {
    w.error(ErrorKind::KeptArgumentChanged {
        read: format!("{read:?}"),
        written: format!("{written:?}"),
    })
}

/// Reads the bytes of a string or byte run that ends at `terminator`, a code unit of `unit`
/// bytes (a UTF-16 NUL is two), as the value stores them: a consumed terminator stays in the
/// stored bytes, so that writing them back writes it ([`check_terminated_units`] wants it
/// there); `include` only changes what a text accessor shows, which stops at the terminator
/// anyway. Kept as [`Reader::keep`] keeps bytes.
pub fn read_terminated_bytes(
    r: &mut Reader<'_>,
    terminator: u8,
    unit: usize,
    consume: bool,
    eos_error: bool,
) -> Result<crate::ByteBuf> {
    let bytes = match unit {
        0 | 1 => r.until(terminator, consume, consume, eos_error)?,
        unit => r.until_unit(terminator, unit, consume, consume, eos_error)?,
    };
    Ok(r.keep(bytes))
}

/// Before writing a terminated string or byte run that the reader delimits by its terminator:
/// a consumed terminator must end the bytes and occur nowhere before (it would end the value
/// early on reading); an unconsumed one must not occur at all. A missing terminator is only
/// accepted where the reader accepts one (`eos-error: false`, at the end of the stream).
pub fn check_terminated(
    bytes: &[u8],
    terminator: u8,
    consumed: bool,
    eos_error: bool,
    w: &Writer,
) -> Result<()> {
    check_terminated_units(bytes, terminator, 1, consumed, eos_error, w)
}

/// [`check_terminated`] for text whose terminator is `unit` bytes at a multiple of `unit` (a
/// UTF-16 NUL).
pub fn check_terminated_units(
    bytes: &[u8],
    terminator: u8,
    unit: usize,
    consumed: bool,
    eos_error: bool,
    w: &Writer,
) -> Result<()> {
    let unit = unit.max(1);
    let first = crate::bytes::find_terminator(bytes, terminator, unit);
    let fits = match first {
        Some(i) => consumed && i + unit == bytes.len(),
        None => !consumed || !eos_error,
    };
    if fits {
        return Ok(());
    }
    Err(encode_error(
        w,
        format!(
            "the reader ends this value at the first {}, so it must {}",
            match unit {
                1 => format!("byte {terminator:#04x}"),
                n => format!("{n} bytes {terminator:#04x}"),
            },
            if consumed {
                "end with it and hold it nowhere else"
            } else {
                "not hold it"
            }
        ),
    ))
}

/// Reads a value from the bytes up to `terminator` (a user type delimited by a terminator, as
/// Kaitai reads it): the substream holds the terminator when `include`, and the reader goes
/// past it when `consume`.
pub fn read_terminated<'a, T>(
    r: &mut Reader<'a>,
    terminator: u8,
    include: bool,
    consume: bool,
    eos_error: bool,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let start = r.pos();
    let len = r.until(terminator, include, consume, eos_error)?.len();
    let after = r.pos();
    r.seek(start)?;
    let value = read_sub(r, len as i64, read)?;
    r.seek(after)?;
    Ok(value)
}

/// After writing a value that is read up to `terminator`, from position `start`: refuses a
/// value the reader would end elsewhere, and writes the terminator the reader consumes.
pub fn end_terminated(
    w: &mut Writer,
    start: usize,
    terminator: u8,
    include: bool,
    consume: bool,
    eos_error: bool,
) -> Result<()> {
    check_terminated(w.written_since(start), terminator, include, eos_error, w)?;
    if consume && !include {
        w.write_u8(terminator);
    }
    Ok(())
}

/// Copies `K` bytes at `at` out of a fixed-size element. Offsets come from the schema, never
/// from input, and the generator keeps them inside the element.
#[inline(always)]
pub fn bytes_at<const K: usize, const N: usize>(b: &[u8; N], at: usize) -> [u8; K] {
    let mut out = [0; K];
    out.copy_from_slice(&b[at..at + K]);
    out
}

/// The `K` bytes at `at` of a fixed-size element, to encode a nested fixed-size value into.
#[inline(always)]
pub fn array_mut<const K: usize, const N: usize>(b: &mut [u8; N], at: usize) -> &mut [u8; K] {
    let (chunk, _) = b[at..]
        .split_first_chunk_mut::<K>()
        .expect("offsets come from the schema");
    chunk
}

/// Reads a value from a substream of `len` bytes (Kaitai `size` on a user type). The value
/// must consume the whole substream: bytes it leaves would be lost on writing, so a schema
/// ends such types with a `size-eos` field when stale bytes can follow.
pub fn read_sub<'a, T>(
    r: &mut Reader<'a>,
    len: i64,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let len = length(len, r)?;
    let mut sub = r.sub(len)?;
    let value = read(&mut sub)?;
    if sub.is_eof() {
        Ok(value)
    } else {
        Err(sub.error(ErrorKind::Invalid(format!(
            "{} of the {len} bytes given by the size were not read; end the type with a `size-eos` field to keep them",
            sub.remaining()
        ))))
    }
}

/// [`read_sub`] for a value that keeps the bytes its substream leaves (Kaitai skips them): the
/// value and those bytes, which the value keeps as `_unread` to write them back.
pub fn read_sub_keeping<'a, T>(
    r: &mut Reader<'a>,
    len: i64,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<(T, crate::ByteBuf)> {
    let len = length(len, r)?;
    let mut sub = r.sub(len)?;
    let value = read(&mut sub)?;
    Ok((value, sub.keep_rest()))
}

/// Before writing in place a value that may keep a substream's unread bytes: there is no
/// substream here, and the bytes would be read as what follows.
pub fn nothing_unread(unread: &[u8], w: &Writer) -> Result<()> {
    match unread.is_empty() {
        true => Ok(()),
        false => Err(encode_error(
            w,
            format!(
                "keeps {} bytes a substream left unread, but is written where no substream holds it",
                unread.len()
            ),
        )
        .in_field("_unread")),
    }
}

/// Reads a field that extends to an occurrence of `marker`, choosing the first occurrence after
/// which `read_rest` reads the rest of the stream exactly to its end. Real files give no length
/// for such a field (the SWAT 3 skeleton), and the marker may occur inside it too, so only a
/// complete parse of what follows can confirm the boundary.
pub fn read_scanned<'a, T, Rest>(
    r: &mut Reader<'a>,
    name: &'static str,
    marker: &[u8],
    mut read_value: impl FnMut(&mut Reader<'a>) -> Result<T>,
    mut read_rest: impl FnMut(&mut Reader<'a>) -> Result<Rest>,
) -> Result<(T, Rest)> {
    let data = r.clone().rest();
    let mut last_error = None;
    let candidates = data
        .windows(marker.len())
        .enumerate()
        .filter(|(_, window)| *window == marker)
        .map(|(at, _)| at);
    for len in candidates {
        let mut trial = r.clone();
        let attempt = trial.sub(len).and_then(|mut region| {
            let value = read_value(&mut region)?;
            if !region.is_eof() {
                return Err(region.error(ErrorKind::Invalid(
                    "the field does not fill its region".into(),
                )));
            }
            let rest = read_rest(&mut trial)?;
            if !trial.is_eof() {
                return Err(trial.error(ErrorKind::Invalid(format!(
                    "{} bytes remain after the last field",
                    trial.remaining()
                ))));
            }
            Ok((value, rest))
        });
        charge_trial(r, &trial, attempt.as_ref().err()).in_field(name)?;
        match attempt {
            Ok(found) => {
                *r = trial;
                return Ok(found);
            }
            Err(e) => last_error = Some(e),
        }
    }
    let error = match last_error {
        Some(e) => r.error(ErrorKind::Invalid(format!(
            "no occurrence of the marker {marker:02x?} is followed by a complete parse of the rest; the last attempt failed {e}"
        ))),
        None => r.error(ErrorKind::Invalid(format!(
            "the marker {marker:02x?} does not occur"
        ))),
    };
    Err(error.in_field(name))
}

/// Reads a value at position `pos` of the reader's stream (the file, a substream, decoded
/// data) without moving the reader (a Kaitai `pos` instance); [`write_at`] places it back.
pub fn read_at<'a, T: 'static>(
    r: &Reader<'a>,
    pos: i64,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let mut at = r.clone();
    at.seek(length(pos, r)?)?;
    read_charged(r, at, read)
}

/// Reads a value at position `pos` of `_root._io` (the whole file, or an imported schema's
/// root stream: see [`Reader::root_stream`]), from any stream, without moving `r`.
pub fn read_at_root<'a, T: 'static>(
    r: &Reader<'a>,
    pos: i64,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    read_at(&r.root_stream(), pos, read)
}

/// Reads a value at position `pos` of `r`'s stream without moving `r`, in any stream: the value
/// is kept as read and never placed back (its position needs the input stream).
pub fn read_kept<'a, T: 'static>(
    r: &Reader<'a>,
    pos: i64,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let _unplaced = r.reading_unplaced();
    read_at(r, pos, read)
}

/// Reads with `at`, charging the bytes it reads to `r`'s budget.
fn read_charged<'a, T: 'static>(
    r: &Reader<'_>,
    at: Reader<'a>,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let _visit = at.visit::<T>()?;
    read_visiting(r, at, read)
}

/// Reads with `at`, already visiting what it reads, charging the bytes to `r`'s budget.
fn read_visiting<'a, T>(
    r: &Reader<'_>,
    mut at: Reader<'a>,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    // Before reading: once the budget is spent, what remains to be read by position fails at
    // once rather than after reading everything it points to.
    r.charge(Reader::POSITIONED_READ_COST)?;
    let start = at.pos();
    let value = read(&mut at)?;
    if at.pos() > start {
        at.note_placed(0); // what it read ends here; what it reads elsewhere notes itself
    }
    r.charge((at.pos() - start) as u64)?;
    Ok(value)
}

/// Where a value read by position is: its stream and its position there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placed {
    /// Of the reader's stream ([`read_at`]).
    Own(i64),
    /// Of `_root._io` ([`read_at_root`]).
    Root(i64),
}

/// Reads a value by position for an interpreter, whose values are all of one Rust type: a
/// value of the type named `ty` at the same position of the same stream being read around it
/// is a cycle, as [`read_at`] finds one by Rust type.
pub fn read_placed_as<'a, T>(
    r: &Reader<'a>,
    placed: Placed,
    ty: &'static str,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let (mut at, pos) = match placed {
        Placed::Own(pos) => (r.clone(), pos),
        Placed::Root(pos) => (r.root_stream(), pos),
    };
    at.seek(length(pos, &at)?)?;
    let _visit = at.visit_as(ty)?;
    read_visiting(r, at, read)
}

/// Reads a value at position `pos` of the stream another value was read from (`io: x._io`),
/// without moving `r`. The value is kept as read and never written: its bytes belong to the
/// value whose stream it is.
pub fn read_in<'a, T: 'static>(
    r: &Reader<'a>,
    stream: &'a crate::Stream,
    pos: i64,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let mut at = stream.reader(r)?;
    at.seek(length(pos, &at)?)?;
    let _unplaced = r.reading_unplaced();
    read_charged(r, at, read)
}

/// Reads a value at position `pos` of another value's stream, which `at` reads from its start,
/// for an interpreter ([`read_in`]); a cycle is found by the name of the type read.
pub fn read_in_as<'b, T>(
    r: &Reader<'_>,
    mut at: Reader<'b>,
    pos: i64,
    ty: &'static str,
    read: impl FnOnce(&mut Reader<'b>) -> Result<T>,
) -> Result<T> {
    at.seek(length(pos, &at)?)?;
    let _visit = at.visit_as(ty)?;
    let _unplaced = r.reading_unplaced();
    read_visiting(r, at, read)
}

/// Writes a value read by position as a block placed at `pos` of the stream being written
/// (see [`Writer::place`], [`Writer::in_substream`]).
pub fn write_at(
    w: &mut Writer,
    pos: i64,
    field: &'static str,
    write: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    let stream_start = w.stream_start();
    write_in_stream(w, pos, stream_start, field, write)
}

/// Claims the `len` bytes at `pos` of an instance read on demand and still unread, for a
/// writer that measures coverage ([`crate::Instance::held`] gives `Claimed` to no other): where
/// [`write_at`] (`in_file`: [`write_at_root`]) would place its block, without making one.
pub fn claim_at(w: &mut Writer, pos: i64, in_file: bool, len: usize) -> Result<()> {
    let start = match in_file {
        true => w.file_root_start().unwrap_or(0),
        false => w.stream_start(),
    };
    let at = block_position(w, pos, start)?;
    w.claim_placed(at, len, in_file);
    Ok(())
}

/// Writes a value read at position `pos` of `_root._io` as a block placed there: in the whole
/// file, or in the stream of the imported schema's root value being written (see
/// [`Writer::in_file_root`]).
pub fn write_at_root(
    w: &mut Writer,
    pos: i64,
    field: &'static str,
    write: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    if let Some(root_start) = w.file_root_start() {
        return write_in_stream(w, pos, root_start, field, write);
    }
    let at = block_position(w, pos, 0)?;
    let mut block = w.file_block(at);
    write(&mut block)?;
    w.place_in_file(at, field, block)
}

/// Writes a value read by position whose offset follows where it is placed (see
/// [`crate::relocation`]): as [`write_at`] (`in_file`: [`write_at_root`]), but set aside for
/// the plan by a writer that plans relocations, and where the plan moved it by one that
/// relocates. `offset` is the key of its offset field and the unit the offset counts in.
pub fn write_at_relocatable(
    w: &mut Writer,
    pos: i64,
    in_file: bool,
    field: &'static str,
    offset: (usize, u64),
    write: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    write_relocatable(w, (pos, in_file), field, (offset, false), write)
}

/// [`write_at_relocatable`] for a block that is bytes a sequential value holds, read again
/// (a ZIP's local file section, read again by the central directory): where it no longer fits
/// its offset, the plan places it where the file already holds its bytes, after the blocks
/// before it (see [`crate::relocation`]).
pub fn write_at_following(
    w: &mut Writer,
    pos: i64,
    in_file: bool,
    field: &'static str,
    offset: (usize, u64),
    write: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    write_relocatable(w, (pos, in_file), field, (offset, true), write)
}

fn write_relocatable(
    w: &mut Writer,
    (pos, in_file): (i64, bool),
    field: &'static str,
    (offset, follows): ((usize, u64), bool),
    write: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    if !w.places_in_file(in_file) {
        return match in_file {
            true => write_at_root(w, pos, field, write),
            false => write_at(w, pos, field, write),
        };
    }
    let at = match w.moved(offset.0) {
        Some(at) => usize::try_from(at)
            .map_err(|_| encode_error(w, "a block past the address space".into()))?,
        None => block_position(w, pos, 0)?,
    };
    let mut block = w.block(at, 0);
    write(&mut block)?;
    w.place_relocatable(at, field, (offset, follows), block)
}

/// The value an offset field `key` of a relocatable block (see [`write_at_relocatable`]) is
/// written as: where the plan moved its block, in units of `unit`, or as stored.
pub fn relocated_offset<T: TryFrom<u64>>(
    w: &Writer,
    key: usize,
    unit: u64,
    stored: T,
) -> Result<T> {
    let Some(at) = w.moved(key) else {
        return Ok(stored);
    };
    T::try_from(at / unit.max(1)).map_err(|_| {
        encode_error(
            w,
            format!(
                "the block would move to byte {at}, past what the {} storing its offset can hold",
                std::any::type_name::<T>()
            ),
        )
    })
}

/// Places the block `write` writes at `pos` of the stream of `w` that starts at `start`.
fn write_in_stream(
    w: &mut Writer,
    pos: i64,
    start: usize,
    field: &'static str,
    write: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    let at = block_position(w, pos, start)?;
    // A block placed in a stream other than the file's moves with the bytes that stream
    // starts in.
    if start != 0 || !w.places_in_file(false) {
        w.anchor();
    }
    let mut block = w.block(at, start);
    write(&mut block)?;
    w.place(at, field, block)
}

/// Where a block at `pos` of the stream that starts at `stream_start` lands.
fn block_position(w: &Writer, pos: i64, stream_start: usize) -> Result<usize> {
    usize::try_from(pos)
        .ok()
        .and_then(|pos| pos.checked_add(stream_start))
        .ok_or_else(|| encode_error(w, format!("cannot place a value at the position {pos}")))
}

/// Bytes of a file that no field claims, with their offsets. Files whose parts are found by
/// offset may leave bytes between or after them; these are kept so the file round-trips.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Gap {
    /// Absolute offset in the file.
    pub offset: u64,
    /// The bytes, as read.
    pub bytes: crate::RawBytes,
}

/// The bytes of the file that the fields of a value `r` has just read from its start claim,
/// when the read alone tells, without encoding the value again ([`Writer::for_coverage`]):
/// those read in sequence, which the value encodes to (`encoded_len`), when no value read by
/// position lies past them (a PNG's EXIF is inside its chunk), and those of the instances left
/// unread, which claim their bytes unread (a font's tables, an icon's images). Sorted and
/// merged, as [`Writer::coverage`] gives them. `None` when a pass over the value must tell.
/// Asked once, when the read is over: it takes the unread instances' claims from the read.
pub fn claimed_as_read(r: &Reader<'_>, encoded_len: usize) -> Option<Vec<std::ops::Range<usize>>> {
    let read = 0..r.pos();
    let placed_inside = r.placed_end()? <= read.end as u64;
    if !(placed_inside && r.is_whole_file() && read.end == encoded_len) {
        return None;
    }
    let to_usize = |at: u64| usize::try_from(at).ok();
    // Collected in place: the claims' own allocation, which their noting left room in.
    let mut claimed = (r.take_unread_claims().into_iter())
        .map(|range| Some(to_usize(range.start)?..to_usize(range.end)?))
        .collect::<Option<Vec<_>>>()?;
    claimed.push(read);
    Some(crate::canvas::merge_ranges(claimed))
}

/// The gaps of the file `r` reads outside `covered` (sorted, merged ranges, as
/// [`Writer::coverage`] gives), kept as `r` keeps bytes ([`Reader::keep`]).
pub fn unclaimed(r: &Reader<'_>, covered: &[std::ops::Range<usize>]) -> Vec<Gap> {
    let input = r.file();
    let mut gaps = Vec::new();
    let mut at = 0;
    for range in covered
        .iter()
        .chain(std::iter::once(&(input.len()..input.len())))
    {
        let end = range.start.min(input.len());
        if at < end {
            gaps.push(Gap {
                offset: at as u64,
                bytes: crate::RawBytes(r.keep(&input[at..end])),
            });
        }
        at = at.max(range.end);
    }
    gaps
}

/// Places the gaps back where they were read, once every field is written. A gap must be what
/// reading the output would find: bytes no field claims, in order, neither empty nor touching
/// the gap before it (reading would merge the two).
pub fn write_gaps(w: &mut Writer, gaps: &[Gap]) -> Result<()> {
    if gaps.is_empty() {
        return Ok(()); // the usual case, and that of the coverage pass: nothing to measure
    }
    let claimed = w.coverage();
    let mut previous_end = None;
    for (index, gap) in gaps.iter().enumerate() {
        let refuse = |w: &Writer, why: String| Err(encode_error(w, why)).at_index(index);
        let Some(end) = usize::try_from(gap.offset)
            .ok()
            .and_then(|at| at.checked_add(gap.bytes.0.len()))
        else {
            return refuse(
                w,
                format!("a gap at {} is past the address space", gap.offset),
            );
        };
        let start = end - gap.bytes.0.len();
        if start == end {
            return refuse(w, format!("the gap at {start} is empty"));
        }
        if previous_end.is_some_and(|previous| start <= previous) {
            return refuse(
                w,
                format!(
                    "the gap at {start} does not come after the gap before it with bytes between"
                ),
            );
        }
        if let Some(field) = claimed.iter().find(|r| r.start < end && start < r.end) {
            return refuse(
                w,
                format!(
                    "the gap at {start}..{end} overlaps bytes a field claims ({}..{})",
                    field.start, field.end
                ),
            );
        }
        let mut block = Writer::new();
        block.bytes(&gap.bytes.0);
        w.place(start, "unclaimed", block).at_index(index)?;
        previous_end = Some(end);
    }
    Ok(())
}

/// Reads the rest of a type given a value it depends on (a count no field stores). A known
/// value (non-zero) is used as is; otherwise every candidate is tried and the only one after
/// which the rest parses exactly to the end of the stream is kept. None, or more than one, is
/// an error that asks for the value.
pub fn read_solved<'a, T, Rest>(
    r: &mut Reader<'a>,
    name: &'static str,
    known: i64,
    candidates: std::ops::RangeInclusive<i64>,
    mut read_rest: impl FnMut(&mut Reader<'a>, T) -> Result<Rest>,
) -> Result<(T, Rest)>
where
    T: TryFrom<i64> + Copy + std::fmt::Display,
{
    if known != 0 {
        // Errors of the fields after this one keep their own paths.
        let value = crate::arith::fit::<T>(known, r).in_field(name)?;
        return Ok((value, read_rest(r, value)?));
    }
    let mut found: Option<(T, Rest, Reader<'a>)> = None;
    for candidate in candidates {
        let Ok(value) = T::try_from(candidate) else {
            continue;
        };
        let mut trial = r.clone();
        let attempt = read_rest(&mut trial, value);
        charge_trial(r, &trial, attempt.as_ref().err()).in_field(name)?;
        let Ok(rest) = attempt else {
            continue;
        };
        if !trial.is_eof() {
            continue;
        }
        if let Some((first, ..)) = &found {
            return Err(r
                .error(ErrorKind::Invalid(format!(
                    "both {first} and {value} make the rest parse; the value must be given"
                )))
                .in_field(name));
        }
        found = Some((value, rest, trial));
    }
    match found {
        Some((value, rest, trial)) => {
            *r = trial;
            Ok((value, rest))
        }
        None => Err(r
            .error(ErrorKind::Invalid(
                "no candidate value makes the rest parse to the end; the value must be given"
                    .into(),
            ))
            .in_field(name)),
    }
}

/// Charges a trial parse of `read_scanned` or `read_solved` against the reader's budget: the
/// bytes it got through, as far as the trial reader went or, when it failed in a substream,
/// the error's offset. Trials nest (a scan around a solve), so without a budget hostile input
/// full of markers would cost markers × candidates × length.
fn charge_trial(r: &Reader<'_>, trial: &Reader<'_>, failure: Option<&Error>) -> Result<()> {
    let reached = trial.absolute_pos();
    let end = failure.map_or(reached, |e| reached.max(e.offset()));
    r.charge(end.saturating_sub(r.absolute_pos()).max(1))
}

/// The `K` bytes at `pos` without moving the reader (a look-ahead); `None` past the end.
#[inline]
pub fn peek<const K: usize>(r: &Reader<'_>, pos: i64) -> Option<[u8; K]> {
    let mut ahead = r.clone();
    ahead.seek(usize::try_from(pos).ok()?).ok()?;
    ahead.array::<K>().ok()
}

/// `K` new bytes at the end of the writer, to encode a fixed-size value into.
#[inline]
pub fn reserve_array<const K: usize>(w: &mut Writer) -> &mut [u8; K] {
    let (chunk, _) = w
        .reserve_slice(K)
        .split_first_chunk_mut::<K>()
        .expect("exactly K bytes were reserved");
    chunk
}

/// Reads one element per element of `items` (a list read earlier), passing each index and
/// partner.
pub fn read_each<'a, E, T>(
    r: &mut Reader<'a>,
    items: &[E],
    min_size: usize,
    mut read: impl FnMut(&mut Reader<'a>, usize, &E) -> Result<T>,
) -> Result<Vec<T>> {
    if (items.len() as u128) * (min_size as u128) > r.remaining() as u128 {
        return Err(r.error(ErrorKind::CountTooLarge {
            count: items.len() as u64,
            elem_size: min_size as u64,
            remaining: r.remaining() as u64,
        }));
    }
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        out.push(read(r, index, item).at_index(index)?);
    }
    Ok(out)
}

/// Reads a .NET 7-bit encoded length. Non-minimal encodings, which .NET never writes, are
/// refused rather than silently re-encoded shorter.
pub fn read_vlq(r: &mut Reader<'_>) -> Result<u32> {
    let start = r.clone();
    let value = r.read_7bit_u32()?;
    if r.pos() - start.pos() != vlq_len(value) {
        // A failed read consumes nothing, as everywhere else in the reader.
        *r = start;
        return Err(r.error(ErrorKind::Invalid(format!(
            "the 7-bit length {value} is not minimally encoded"
        ))));
    }
    Ok(value)
}

/// Bytes of the minimal 7-bit encoding of `value` (a `u32` or a reference to one).
pub fn vlq_len(value: impl std::borrow::Borrow<u32>) -> usize {
    match *value.borrow() {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        0x20_0000..=0xfff_ffff => 4,
        _ => 5,
    }
}

/// The first padding byte that does not hold its index (00 01 02 …), with the byte expected.
pub fn index_fill_mismatch(pad: &[u8]) -> Option<(u8, u8)> {
    pad.iter()
        .enumerate()
        .find(|&(i, &b)| usize::from(b) != i)
        .map(|(i, &b)| (b, i as u8))
}

/// Which bytes of a slot a value read from it was read from (see [`write_into_slot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaced {
    /// From its position to the end of the slot: the value reads to the end of its stream.
    ToEnd,
    /// Up to and with the first of this byte: a terminated value.
    Terminated(u8),
    /// This many bytes: a value of a fixed size.
    Size(usize),
}

impl Replaced {
    /// The bytes of `slot` a value read at `pos` was read from, found by reading it there
    /// again (`read`, the value's reader): `None` when the slot's bytes no longer read as one.
    pub fn as_read(
        slot: &[u8],
        pos: i64,
        read: impl FnOnce(&mut Reader<'_>) -> Result<()>,
    ) -> Option<Replaced> {
        let start = usize::try_from(pos).ok()?;
        let mut r = Reader::new(slot);
        r.seek(start).ok()?;
        read(&mut r).ok()?;
        Some(Replaced::Size(r.pos() - start))
    }
}

/// The bytes of `slot` a value read at `pos` was read from, as `replaced` tells them; `None`
/// where they cannot be found.
fn replaced_range(slot: &[u8], pos: i64, replaced: Replaced) -> Option<std::ops::Range<usize>> {
    let start = usize::try_from(pos).ok().filter(|&p| p <= slot.len())?;
    let end = match replaced {
        Replaced::ToEnd => Some(slot.len()),
        Replaced::Terminated(byte) => slot[start..]
            .iter()
            .position(|&b| b == byte)
            .map(|at| start + at + 1),
        Replaced::Size(size) => Some(start.saturating_add(size)).filter(|&end| end <= slot.len()),
    }?;
    Some(start..end)
}

/// The bytes of a value `write` writes on its own, when it places nothing by position (what a
/// value read at a position counted from the end of the file is written back as, see
/// [`write_into_gaps`]).
pub fn own_bytes(write: impl FnOnce(&mut Writer) -> Result<()>) -> Result<Option<Vec<u8>>> {
    let mut w = Writer::new();
    write(&mut w)?;
    match w.places_nothing() {
        true => w.into_bytes().map(Some),
        false => Ok(None),
    }
}

/// Writes `bytes`, a value read at `at` of the file that no field writes (`pos: _io.size -
/// 769`: its bytes are the file's unclaimed bytes), into the gaps that hold them; true when a
/// byte changed. Nothing is written unless gaps cover every byte of it.
pub fn write_into_gaps(gaps: &mut [Gap], at: u64, bytes: &[u8]) -> bool {
    let Some(overlaps) = covering_gaps(gaps, at, bytes.len()) else {
        return false;
    };
    let mut changed = false;
    for (gap, range, from) in overlaps {
        let written = &bytes[from..from + range.len()];
        let held = &mut gaps[gap].bytes.0[range];
        changed |= held != written;
        held.copy_from_slice(written);
    }
    changed
}

/// For `check()`: the index of the first gap whose bytes differ from `bytes` written at `at`
/// (see [`write_into_gaps`]), with its length; none where they agree or the gaps do not cover
/// them.
pub fn gaps_mismatch(gaps: &[Gap], at: u64, bytes: &[u8]) -> Option<(usize, usize)> {
    covering_gaps(gaps, at, bytes.len())?
        .into_iter()
        .find(|(gap, range, from)| {
            gaps[*gap].bytes.0[range.clone()] != bytes[*from..][..range.len()]
        })
        .map(|(gap, _, _)| (gap, gaps[gap].bytes.0.len()))
}

/// The gaps that hold the bytes `at..at + len`, each with the range of its bytes among them and
/// where that range starts in them; `None` unless they hold every one.
fn covering_gaps(
    gaps: &[Gap],
    at: u64,
    len: usize,
) -> Option<Vec<(usize, std::ops::Range<usize>, usize)>> {
    let end = at.checked_add(len as u64)?;
    let overlaps: Vec<_> = (gaps.iter().enumerate())
        .filter_map(|(index, gap)| {
            let gap_end = gap.offset.saturating_add(gap.bytes.0.len() as u64);
            let (start, stop) = (gap.offset.max(at), gap_end.min(end));
            if start >= stop {
                return None;
            }
            let from = usize::try_from(start - gap.offset).ok()?;
            let to = usize::try_from(stop - gap.offset).ok()?;
            Some((index, from..to, usize::try_from(start - at).ok()?))
        })
        .collect();
    let covered: usize = overlaps.iter().map(|(_, range, _)| range.len()).sum();
    (covered == len).then_some(overlaps)
}

/// Writes `bytes`, a value read at `pos` of a slot's stream (a value that keeps its
/// substream's bytes, `slot`), into the slot in place of those it was read from; true when
/// the slot changed. Nothing is written where those bytes cannot be found.
pub fn write_into_slot(slot: &mut Vec<u8>, pos: i64, replaced: Replaced, bytes: &[u8]) -> bool {
    match replaced_range(slot, pos, replaced) {
        Some(range) if slot[range.clone()] != *bytes => {
            slot.splice(range, bytes.iter().copied());
            true
        }
        _ => false,
    }
}

/// What `check()` reports of a slot whose bytes a value read at `pos` was read from differ
/// from `bytes`, the value as it is written now (see [`write_into_slot`]): how many bytes the
/// slot holds there, and how many the value writes.
pub fn slot_mismatch(
    slot: &[u8],
    pos: i64,
    replaced: Replaced,
    bytes: &[u8],
) -> Option<(usize, usize)> {
    let range = replaced_range(slot, pos, replaced)?;
    (slot[range.clone()] != *bytes).then_some((range.len(), bytes.len()))
}

/// Resizes padding that follows a derived field to `size` bytes: cut short, or extended with
/// zeros (by at most 64 KiB: padding is small, and a size computed from a hostile value must
/// not allocate without bound).
pub fn resize_padding(pad: &mut Vec<u8>, size: i64) -> Result<()> {
    const MOST_GROWN: usize = 1 << 16;
    match usize::try_from(size) {
        Ok(size) if size <= pad.len().saturating_add(MOST_GROWN) => {
            pad.resize(size, 0);
            Ok(())
        }
        _ => Err(Error::new(
            0,
            ErrorKind::Invalid(format!("padding of {size} bytes")),
        )),
    }
}

/// Rewrites padding to hold its index (00 01 02 …).
pub fn fill_with_index(pad: &mut [u8]) {
    for (i, b) in pad.iter_mut().enumerate() {
        *b = i as u8;
    }
}

/// Reads raw bytes of a computed length, rounded up to a multiple of `align`: a view of the
/// file when the reader keeps it, else a copy ([`Reader::keep`]).
pub fn read_raw(r: &mut Reader<'_>, len: i64, align: usize) -> Result<crate::RawBytes> {
    let bytes = read_sized(r, len, align)?;
    Ok(crate::RawBytes(r.keep(bytes)))
}

/// Reads fixed `contents` (a magic), failing with the bytes found when they differ.
pub fn read_contents(r: &mut Reader<'_>, expected: &[u8]) -> Result<()> {
    let start = r.pos();
    let found = r.bytes(expected.len())?;
    if found == expected {
        return Ok(());
    }
    // The error names where the contents start (no clone of the reader on the way there).
    let found = found.to_vec();
    r.seek(start)?;
    Err(r.error(ErrorKind::BadContents {
        expected: expected.to_vec(),
        found,
    }))
}

/// `len` rounded up to a multiple of `align`, as the reader computes it (negative lengths stay
/// as they are, so the writer's size check reports them).
pub fn padded_len(len: i64, align: usize) -> i64 {
    match usize::try_from(len) {
        Ok(n) => len.wrapping_add(crate::pad_to_multiple(n, align) as i64),
        Err(_) => len,
    }
}

fn read_sized<'a>(r: &mut Reader<'a>, len: i64, align: usize) -> Result<&'a [u8]> {
    let len = length(len, r)?;
    r.bytes(len + crate::pad_to_multiple(len, align))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_must_be_present_exactly_when_its_condition_holds() {
        let w = Writer::new();
        assert!(check_condition(true, true, &w).is_ok());
        assert!(check_condition(false, false, &w).is_ok());
        let present = check_condition(false, true, &w).unwrap_err();
        assert_eq!(
            present.kind(),
            &ErrorKind::ConditionMismatch { present: true }
        );
        let missing = check_condition(true, false, &w).unwrap_err();
        assert_eq!(
            missing.kind(),
            &ErrorKind::ConditionMismatch { present: false }
        );
    }

    #[test]
    fn a_consumed_terminator_stays_in_the_stored_bytes() {
        let mut r = Reader::new(b"ab\0cd");
        assert_eq!(
            &*read_terminated_bytes(&mut r, 0, 1, true, true).unwrap(),
            b"ab\0"
        );
        assert_eq!(r.pos(), 3);
        let mut r = Reader::new(b"ab\0cd");
        assert_eq!(
            &*read_terminated_bytes(&mut r, 0, 1, false, true).unwrap(),
            b"ab"
        );
        assert_eq!(r.pos(), 2);
        // A UTF-16 NUL: two bytes at an even offset, the odd `0` of `a\0` not one.
        let mut r = Reader::new(b"a\0\0\0z\0");
        assert_eq!(
            &*read_terminated_bytes(&mut r, 0, 2, true, true).unwrap(),
            b"a\0\0\0"
        );
        let mut r = Reader::new(b"ab");
        assert!(read_terminated_bytes(&mut r, 0, 1, true, true).is_err());
    }

    #[test]
    fn bulk_round_trip() {
        let data = [1, 0, 2, 0, 3, 0];
        let mut r = Reader::new(&data);
        let items = read_fixed(&mut r, 3, |b: &[u8; 2]| u16::from_le_bytes(*b)).unwrap();
        assert_eq!(items, [1, 2, 3]);
        let mut w = Writer::new();
        write_fixed(&mut w, &items, |v, b: &mut [u8; 2]| *b = v.to_le_bytes());
        assert_eq!(w.into_bytes().unwrap(), data);
    }

    #[test]
    fn hostile_counts_fail_before_allocating() {
        let data = [0u8; 100];
        let err = read_counted(&mut Reader::new(&data), u32::MAX.into(), 8, |r, _| {
            r.read_u8()
        })
        .unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::CountTooLarge { .. }),
            "{err}"
        );
        let err =
            read_fixed(&mut Reader::new(&data), u32::MAX.into(), |b: &[u8; 4]| *b).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::CountTooLarge { .. }),
            "{err}"
        );
        assert!(read_fixed(&mut Reader::new(&data), -1, |b: &[u8; 4]| *b).is_err());
    }

    #[test]
    fn element_errors_carry_their_index() {
        let data = [0u8; 5];
        let err = read_counted(&mut Reader::new(&data), 3, 1, |r, _| r.read_u16_le()).unwrap_err();
        assert_eq!(err.path(), "[2]");
        assert_eq!(err.offset(), 4);
    }

    #[test]
    fn eos_and_until() {
        let data = [1, 2, 0, 7];
        let items = read_until(
            &mut Reader::new(&data),
            |r, _| r.read_u8(),
            |b, _, _| Ok(*b == 0),
        )
        .unwrap();
        assert_eq!(items, [1, 2, 0]);
        let items = read_to_eos(&mut Reader::new(&data), |r, _| r.read_u8()).unwrap();
        assert_eq!(items, data);
        let err = read_to_eos(&mut Reader::new(&data), |_, _| Ok(())).unwrap_err();
        assert!(err.to_string().contains("consumed nothing"), "{err}");
    }

    #[test]
    fn contents_and_padding() {
        let mut r = Reader::new(b"ANPKx");
        read_contents(&mut r, b"ANPK").unwrap();
        let err = read_contents(&mut r, b"AB").unwrap_err();
        assert_eq!(err.offset(), 4);
        // Bytes that differ: the error names where the contents start, and what was found.
        let mut r = Reader::new(b"ANPKxyz");
        read_contents(&mut r, b"ANPK").unwrap();
        let err = read_contents(&mut r, b"xz").unwrap_err();
        assert_eq!(err.offset(), 4);
        assert!(err.to_string().contains("found [78, 79]"), "{err}");
        assert_eq!(padded_len(5, 4), 8);
        assert_eq!(padded_len(8, 4), 8);
        assert_eq!(padded_len(-3, 4), -3);
    }

    #[test]
    fn values_from_the_end_are_written_into_the_gaps_that_hold_them() {
        let gap = |offset: u64, bytes: &[u8]| Gap {
            offset,
            bytes: crate::RawBytes::new(bytes.to_vec()),
        };
        let mut gaps = vec![gap(4, &[1, 2, 3]), gap(7, &[4, 5]), gap(12, &[6])];
        // 5..9 spans two gaps that touch.
        assert_eq!(gaps_mismatch(&gaps, 5, &[2, 3, 4, 5]), None);
        assert_eq!(gaps_mismatch(&gaps, 5, &[2, 9, 4, 5]), Some((0, 3)));
        assert!(write_into_gaps(&mut gaps, 5, &[2, 9, 8, 5]));
        assert_eq!(
            (gaps[0].bytes.0.as_slice(), gaps[1].bytes.0.as_slice()),
            (&[1, 2, 9][..], &[8, 5][..])
        );
        assert!(!write_into_gaps(&mut gaps, 5, &[2, 9, 8, 5]));
        // 8..13 needs bytes no gap holds (9..12): nothing is written, nothing reported.
        assert!(!write_into_gaps(&mut gaps, 8, &[0; 5]));
        assert_eq!(gaps_mismatch(&gaps, 8, &[0; 5]), None);
        assert_eq!(gaps[1].bytes.0, [8, 5]);
    }

    #[test]
    fn a_claim_covers_what_a_block_claiming_the_same_bytes_would() {
        use crate::writer::Held;
        // Each way: a writer of the file, one inside a substream starting at 3, and a writer
        // of processed data (whose blocks in the whole file go aside).
        let writers = || {
            let mut in_substream = Writer::for_coverage();
            in_substream.bytes(b"abc");
            [Writer::for_coverage(), in_substream]
        };
        for in_file in [false, true] {
            for (mut by_block, mut by_claim) in writers().into_iter().zip(writers()) {
                let measure = |w: &mut Writer, claim: bool| {
                    w.in_substream(|w| match claim {
                        true => claim_at(w, 8, in_file, 4),
                        false => {
                            let write = |w: &mut Writer| {
                                w.hold(Held::Claimed(4));
                                Ok(())
                            };
                            match in_file {
                                true => write_at_root(w, 8, "x", write),
                                false => write_at(w, 8, "x", write),
                            }
                        }
                    })
                };
                measure(&mut by_block, false).unwrap();
                measure(&mut by_claim, true).unwrap();
                assert_eq!(
                    by_claim.coverage(),
                    by_block.coverage(),
                    "in_file {in_file}"
                );
                // At 8 of the file, or of the substream (which starts after what was written).
                let at = if in_file { 8 } else { 8 + by_claim.pos() };
                assert!(
                    by_claim.coverage().contains(&(at..at + 4)),
                    "in_file {in_file}"
                );
            }
            let (mut by_block, mut by_claim) = (Writer::decoded(), Writer::decoded());
            write_at_root(&mut by_block, 8, "x", |w| {
                w.hold(Held::Claimed(4));
                Ok(())
            })
            .unwrap();
            claim_at(&mut by_claim, 8, true, 4).unwrap();
            let (mut file_a, mut file_b) = (Writer::for_coverage(), Writer::for_coverage());
            file_a.adopt_placed(&mut by_block).unwrap();
            file_b.adopt_placed(&mut by_claim).unwrap();
            assert_eq!(file_b.coverage(), file_a.coverage());
            assert!(
                file_b.coverage().contains(&(8..12)),
                "taken over by the file"
            );
            assert_eq!(by_claim.coverage(), by_block.coverage());
        }
    }

    #[test]
    fn placed_blocks_and_gaps() {
        let mut w = Writer::new();
        w.bytes(b"HEAD");
        write_at(&mut w, 8, "tail", |w| {
            w.bytes(b"TAIL");
            Ok(())
        })
        .unwrap();
        // Without the gaps, bytes 4..8 would be left as zeros that no value holds.
        let err = w.clone().into_bytes().unwrap_err().to_string();
        assert!(err.contains("bytes 4..8 would be left unwritten"), "{err}");
        assert_eq!(w.coverage(), [0..4, 8..12]);
        let input = b"HEADgap!TAILend";
        let gaps = unclaimed(&Reader::new(input), &w.coverage());
        assert_eq!(gaps.len(), 2);
        assert_eq!((gaps[0].offset, &gaps[0].bytes.0[..]), (4, &b"gap!"[..]));
        assert_eq!((gaps[1].offset, &gaps[1].bytes.0[..]), (12, &b"end"[..]));
        write_gaps(&mut w, &gaps).unwrap();
        assert_eq!(w.clone().into_bytes().unwrap(), input);
        // A block that disagrees with one placed before is refused, with both ranges.
        let err = write_at(&mut w, 6, "blob", |w| {
            w.bytes(b"XXXX");
            Ok(())
        })
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("`blob` at 6..10 overlaps `unclaimed` at 4..8"),
            "{err}"
        );
        let r = Reader::new(input);
        assert_eq!(read_at(&r, 8, |r| r.array::<4>()).unwrap(), *b"TAIL");
        assert!(read_at(&r, 20, |r| r.array::<4>()).is_err());
        // Reading the same 4 bytes by position again and again exhausts a budget of two reads.
        let state = crate::reader::FileState::new(2 * (Reader::POSITIONED_READ_COST + 4));
        let r = Reader::new(input).sharing(&state);
        assert!(read_at(&r, 8, |r| r.array::<4>()).is_ok());
        assert!(read_at(&r, 8, |r| r.array::<4>()).is_ok());
        let err = read_at(&r, 8, |r| r.array::<4>()).unwrap_err();
        assert!(err.to_string().contains("far more work"), "{err}");
    }

    #[test]
    fn a_borrowed_file_is_kept_once_its_copied_values_cost_a_share_of_it() {
        const WORDS: FixedLayout<u16> = FixedLayout::new(2, |bytes, len| {
            decode_fixed(bytes, len, |b| u16::from_le_bytes(*b))
        });
        // Each list costs an allocation: the fourth brings them to the share that keeps it.
        let file = vec![7u8; (Reader::KEEP_AT * Reader::COPY_COST * 4) as usize - 1];
        let state = crate::reader::FileState::new(u64::MAX);
        let mut r = Reader::new(&file).sharing(&state);
        let lists: Vec<FixedList<u16>> = (0..6)
            .map(|_| read_fixed_list(&mut r, 100, &WORDS).unwrap())
            .collect();
        let shared: Vec<bool> = lists.iter().map(FixedList::is_shared).collect();
        assert_eq!(shared, [false, false, false, true, true, true]);
        assert!(lists.iter().all(|list| list[..] == [0x0707; 100]));
        // Views of one copy of the file: adjacent, and not in the borrowed file.
        let at = |i: usize| lists[i].stored_bytes().unwrap().as_ptr() as usize;
        assert_eq!(at(4) - at(3), 200);
        assert!(!file.as_ptr_range().contains(&(at(3) as *const u8)));
        // So does a byte field, whatever its size; a few bytes copied inline cost nothing.
        let state = crate::reader::FileState::new(u64::MAX);
        let r = Reader::new(&file).sharing(&state);
        for _ in 0..3 {
            assert!(!r.keep(&file[..2000]).is_shared());
            assert!(!r.keep(&file[..crate::ByteBuf::INLINE]).is_shared());
        }
        assert!(r.keep(&file[..31]).is_shared());
        // Without a state shared by the file's readers, nothing is kept.
        let r = Reader::new(&file);
        assert!(!r.keep(&file).is_shared());
    }

    #[test]
    fn vlq_and_index_fill() {
        for value in [0u32, 127, 128, 16383, 16384, u32::MAX] {
            let mut w = Writer::new();
            w.write_7bit_u32(value);
            let bytes = w.into_bytes().unwrap();
            assert_eq!(bytes.len(), vlq_len(value));
            assert_eq!(read_vlq(&mut Reader::new(&bytes)).unwrap(), value);
        }
        assert!(
            read_vlq(&mut Reader::new(&[0x85, 0x00])).is_err(),
            "non-minimal"
        );
        assert_eq!(index_fill_mismatch(&[0, 1, 2]), None);
        assert_eq!(index_fill_mismatch(&[0, 7]), Some((7, 1)));
        let mut pad = [9, 9, 9];
        fill_with_index(&mut pad);
        assert_eq!(pad, [0, 1, 2]);
    }

    #[test]
    fn writer_checks() {
        let w = Writer::new();
        assert!(check_count(3, 3, &w).is_ok());
        assert!(
            check_count(3, 2, &w)
                .unwrap_err()
                .to_string()
                .contains("normalize")
        );
        assert!(check_len(-1, 0, &w).is_err());
    }
}
