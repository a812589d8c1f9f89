//! Text encodings named by Kaitai's `encoding:` key.
//!
//! Generated code keeps every string's raw bytes so that writing reproduces the file byte
//! for byte; this module turns those bytes into text for people and tools, turns edited
//! text back into bytes, and tells whether the text alone can stand for the bytes
//! ([`Encoding::round_trips`]).
//!
//! The set of encodings and their spellings follows Kaitai Struct 0.11's compiler
//! (`EncodingList.scala`): a label is matched case-insensitively against the canonical name
//! and its aliases. A few more encodings that `encoding_rs` implements (EUC-JP, ISO-2022-JP,
//! GBK, GB18030, KOI8-R/U, Mac Roman/Cyrillic, windows-874) are accepted too, because
//! `.ksy` files written for compilers before 0.11 (which passed any label through to the
//! target language) use them; Kaitai 0.11 itself rejects those labels.
//!
//! Decoding never fails: malformed input becomes U+FFFD, as Kaitai's Java runtime does
//! (`new String(bytes, charset)` replaces). Encoding fails on the first character the
//! encoding cannot represent, rather than writing a substitute, because a silently
//! altered string would corrupt the file being written.
//!
//! Implementation sources, and why:
//! * UTF-8: the standard library (`String::from_utf8_lossy`, `str::as_bytes`).
//! * UTF-16: `encoding_rs` decodes; encoding uses `str::encode_utf16`, because
//!   `encoding_rs` only encodes to UTF-8 when asked for UTF-16 (the WHATWG rule for forms).
//! * UTF-32: by hand. It is four bytes per scalar value, a dozen lines; `encoding_rs`
//!   does not implement it and no maintained crate does just this.
//! * ASCII: by hand, because every WHATWG label for ASCII (and so `encoding_rs`) means
//!   windows-1252, which would turn 0x80-0xFF into letters instead of errors.
//! * ISO-8859-1, ISO-8859-9 and ISO-8859-11: WHATWG (and so `encoding_rs`) treats these
//!   labels as windows-1252, windows-1254 and windows-874, which put printable characters
//!   at 0x80-0x9F. The real ISO standards (and Java and Python, which Kaitai's runtimes use)
//!   map 0x80-0x9F to the C1 controls U+0080-U+009F. The windows code pages agree with the
//!   ISO ones everywhere else, so these three are built from `encoding_rs`' windows tables
//!   for 0xA0-0xFF with identity for 0x00-0x9F (a small table made once, see
//!   `IsoTable`). The other ISO-8859 parts in `encoding_rs` already map 0x80-0x9F
//!   to C1 controls and are used as they are.
//! * IBM437: the `oem_cp` crate (maintained, table-driven, maps 0x00-0x7F to ASCII
//!   controls as Java's and Python's cp437 do, not to the ☺☻ glyphs).
//! * Everything else: `encoding_rs` (the WHATWG Encoding Standard, as in Firefox).
//!   Shift_JIS there is WHATWG's, i.e. Microsoft's windows-31j (CP932), a superset of
//!   JIS X 0208 Shift_JIS; EUC-KR is windows-949 (UHC); Big5 includes HKSCS; GBK decodes
//!   GB2312 data.

pub use crate::bytes::find_terminator;
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

/// The character malformed input decodes to.
const REPLACEMENT: char = '\u{FFFD}';

/// A text encoding Kaitai names in `encoding:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// US-ASCII: bytes 0x00-0x7F; any other byte decodes to U+FFFD.
    Ascii,
    /// UTF-8.
    Utf8,
    /// UTF-16, big-endian, no byte order mark expected or written.
    Utf16Be,
    /// UTF-16, little-endian, no byte order mark expected or written.
    Utf16Le,
    /// UTF-32, big-endian, no byte order mark expected or written.
    Utf32Be,
    /// UTF-32, little-endian, no byte order mark expected or written.
    Utf32Le,
    /// ISO-8859-1 (Latin-1): byte N is U+00NN, including the C1 controls at 0x80-0x9F.
    Iso8859_1,
    /// ISO-8859-2 (Latin-2, Central European).
    Iso8859_2,
    /// ISO-8859-3 (Latin-3, South European).
    Iso8859_3,
    /// ISO-8859-4 (Latin-4, North European).
    Iso8859_4,
    /// ISO-8859-5 (Cyrillic).
    Iso8859_5,
    /// ISO-8859-6 (Arabic).
    Iso8859_6,
    /// ISO-8859-7 (Greek).
    Iso8859_7,
    /// ISO-8859-8 (Hebrew).
    Iso8859_8,
    /// ISO-8859-9 (Latin-5, Turkish), with C1 controls at 0x80-0x9F.
    Iso8859_9,
    /// ISO-8859-10 (Latin-6, Nordic).
    Iso8859_10,
    /// ISO-8859-11 (Thai, TIS-620 plus NBSP), with C1 controls at 0x80-0x9F.
    Iso8859_11,
    /// ISO-8859-13 (Latin-7, Baltic Rim).
    Iso8859_13,
    /// ISO-8859-14 (Latin-8, Celtic).
    Iso8859_14,
    /// ISO-8859-15 (Latin-9, Latin-1 with the euro sign).
    Iso8859_15,
    /// ISO-8859-16 (Latin-10, South-Eastern European).
    Iso8859_16,
    /// windows-1250 (Central European).
    Windows1250,
    /// windows-1251 (Cyrillic).
    Windows1251,
    /// windows-1252 (Western European).
    Windows1252,
    /// windows-1253 (Greek).
    Windows1253,
    /// windows-1254 (Turkish).
    Windows1254,
    /// windows-1255 (Hebrew).
    Windows1255,
    /// windows-1256 (Arabic).
    Windows1256,
    /// windows-1257 (Baltic).
    Windows1257,
    /// windows-1258 (Vietnamese).
    Windows1258,
    /// IBM437, the original IBM PC / DOS code page (box drawing at 0xB0-0xDF).
    Ibm437,
    /// IBM866, the DOS Cyrillic code page.
    Ibm866,
    /// Shift_JIS as WHATWG defines it (Microsoft's windows-31j, a superset of JIS X 0208).
    ShiftJis,
    /// Big5 as WHATWG defines it (including HKSCS).
    Big5,
    /// EUC-KR as WHATWG defines it (Microsoft's windows-949 / UHC superset).
    EucKr,
    /// EUC-JP. Not in Kaitai 0.11's list.
    EucJp,
    /// ISO-2022-JP. Not in Kaitai 0.11's list.
    Iso2022Jp,
    /// GBK (decodes GB2312 data too). Not in Kaitai 0.11's list.
    Gbk,
    /// GB18030. Not in Kaitai 0.11's list.
    Gb18030,
    /// KOI8-R (Russian). Not in Kaitai 0.11's list.
    Koi8R,
    /// KOI8-U (Ukrainian). Not in Kaitai 0.11's list.
    Koi8U,
    /// Mac OS Roman. Not in Kaitai 0.11's list.
    Macintosh,
    /// Mac OS Cyrillic. Not in Kaitai 0.11's list.
    MacCyrillic,
    /// windows-874 (Thai, ISO-8859-11 plus windows punctuation at 0x80-0x9F). Not in
    /// Kaitai 0.11's list.
    Windows874,
}

/// How one [`Encoding`] is implemented (see the module documentation for why).
#[derive(Clone, Copy)]
enum Backend {
    /// The standard library.
    Utf8,
    /// By hand: 0x00-0x7F only.
    Ascii,
    /// `encoding_rs` decodes, `str::encode_utf16` encodes.
    Utf16 { big_endian: bool },
    /// By hand.
    Utf32 { big_endian: bool },
    /// An ISO-8859 part built from a windows code page's upper half.
    Iso(&'static IsoTable),
    /// The `oem_cp` crate.
    Ibm437,
    /// `encoding_rs` as it is.
    Whatwg(&'static encoding_rs::Encoding),
}

impl Encoding {
    /// Every supported encoding (for tests and docs): Kaitai 0.11's list in its order, then
    /// the extra `encoding_rs` encodings.
    pub const ALL: &'static [Encoding] = &[
        Encoding::Ascii,
        Encoding::Utf8,
        Encoding::Utf16Be,
        Encoding::Utf16Le,
        Encoding::Utf32Be,
        Encoding::Utf32Le,
        Encoding::Iso8859_1,
        Encoding::Iso8859_2,
        Encoding::Iso8859_3,
        Encoding::Iso8859_4,
        Encoding::Iso8859_5,
        Encoding::Iso8859_6,
        Encoding::Iso8859_7,
        Encoding::Iso8859_8,
        Encoding::Iso8859_9,
        Encoding::Iso8859_10,
        Encoding::Iso8859_11,
        Encoding::Iso8859_13,
        Encoding::Iso8859_14,
        Encoding::Iso8859_15,
        Encoding::Iso8859_16,
        Encoding::Windows1250,
        Encoding::Windows1251,
        Encoding::Windows1252,
        Encoding::Windows1253,
        Encoding::Windows1254,
        Encoding::Windows1255,
        Encoding::Windows1256,
        Encoding::Windows1257,
        Encoding::Windows1258,
        Encoding::Ibm437,
        Encoding::Ibm866,
        Encoding::ShiftJis,
        Encoding::Big5,
        Encoding::EucKr,
        Encoding::EucJp,
        Encoding::Iso2022Jp,
        Encoding::Gbk,
        Encoding::Gb18030,
        Encoding::Koi8R,
        Encoding::Koi8U,
        Encoding::Macintosh,
        Encoding::MacCyrillic,
        Encoding::Windows874,
    ];

    /// The encoding a Kaitai label names, or `None` when it is not supported.
    ///
    /// Matching ignores ASCII case and accepts the canonical name and every alias of
    /// Kaitai 0.11's compiler (e.g. "UTF-8", "utf8", "ASCII", "US-ASCII", "UTF-16LE",
    /// "SJIS", "Shift_JIS", "CP437", "IBM437", "ISO-8859-1", "latin1", "windows-1251",
    /// "cp1251"), plus the usual names of the extra encodings. Surrounding whitespace is not
    /// trimmed, as Kaitai does not trim either.
    pub fn for_label(label: &str) -> Option<Encoding> {
        Encoding::ALL.iter().copied().find(|encoding| {
            encoding.name().eq_ignore_ascii_case(label)
                || encoding
                    .aliases()
                    .iter()
                    .any(|alias| alias.eq_ignore_ascii_case(label))
        })
    }

    /// Kaitai's canonical name ("UTF-8", "Shift_JIS", "IBM437", "UTF-16LE" …); for the
    /// encodings Kaitai 0.11 does not list, the WHATWG / IANA name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Ascii => "ASCII",
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf32Be => "UTF-32BE",
            Encoding::Utf32Le => "UTF-32LE",
            Encoding::Iso8859_1 => "ISO-8859-1",
            Encoding::Iso8859_2 => "ISO-8859-2",
            Encoding::Iso8859_3 => "ISO-8859-3",
            Encoding::Iso8859_4 => "ISO-8859-4",
            Encoding::Iso8859_5 => "ISO-8859-5",
            Encoding::Iso8859_6 => "ISO-8859-6",
            Encoding::Iso8859_7 => "ISO-8859-7",
            Encoding::Iso8859_8 => "ISO-8859-8",
            Encoding::Iso8859_9 => "ISO-8859-9",
            Encoding::Iso8859_10 => "ISO-8859-10",
            Encoding::Iso8859_11 => "ISO-8859-11",
            Encoding::Iso8859_13 => "ISO-8859-13",
            Encoding::Iso8859_14 => "ISO-8859-14",
            Encoding::Iso8859_15 => "ISO-8859-15",
            Encoding::Iso8859_16 => "ISO-8859-16",
            Encoding::Windows1250 => "windows-1250",
            Encoding::Windows1251 => "windows-1251",
            Encoding::Windows1252 => "windows-1252",
            Encoding::Windows1253 => "windows-1253",
            Encoding::Windows1254 => "windows-1254",
            Encoding::Windows1255 => "windows-1255",
            Encoding::Windows1256 => "windows-1256",
            Encoding::Windows1257 => "windows-1257",
            Encoding::Windows1258 => "windows-1258",
            Encoding::Ibm437 => "IBM437",
            Encoding::Ibm866 => "IBM866",
            Encoding::ShiftJis => "Shift_JIS",
            Encoding::Big5 => "Big5",
            Encoding::EucKr => "EUC-KR",
            Encoding::EucJp => "EUC-JP",
            Encoding::Iso2022Jp => "ISO-2022-JP",
            Encoding::Gbk => "GBK",
            Encoding::Gb18030 => "GB18030",
            Encoding::Koi8R => "KOI8-R",
            Encoding::Koi8U => "KOI8-U",
            Encoding::Macintosh => "macintosh",
            Encoding::MacCyrillic => "x-mac-cyrillic",
            Encoding::Windows874 => "windows-874",
        }
    }

    /// The Rust name of the variant ("ShiftJis"), which generated code emits as
    /// `rt::encoding::Encoding::ShiftJis`. It equals the variant's `Debug` output.
    pub fn variant_name(self) -> &'static str {
        match self {
            Encoding::Ascii => "Ascii",
            Encoding::Utf8 => "Utf8",
            Encoding::Utf16Be => "Utf16Be",
            Encoding::Utf16Le => "Utf16Le",
            Encoding::Utf32Be => "Utf32Be",
            Encoding::Utf32Le => "Utf32Le",
            Encoding::Iso8859_1 => "Iso8859_1",
            Encoding::Iso8859_2 => "Iso8859_2",
            Encoding::Iso8859_3 => "Iso8859_3",
            Encoding::Iso8859_4 => "Iso8859_4",
            Encoding::Iso8859_5 => "Iso8859_5",
            Encoding::Iso8859_6 => "Iso8859_6",
            Encoding::Iso8859_7 => "Iso8859_7",
            Encoding::Iso8859_8 => "Iso8859_8",
            Encoding::Iso8859_9 => "Iso8859_9",
            Encoding::Iso8859_10 => "Iso8859_10",
            Encoding::Iso8859_11 => "Iso8859_11",
            Encoding::Iso8859_13 => "Iso8859_13",
            Encoding::Iso8859_14 => "Iso8859_14",
            Encoding::Iso8859_15 => "Iso8859_15",
            Encoding::Iso8859_16 => "Iso8859_16",
            Encoding::Windows1250 => "Windows1250",
            Encoding::Windows1251 => "Windows1251",
            Encoding::Windows1252 => "Windows1252",
            Encoding::Windows1253 => "Windows1253",
            Encoding::Windows1254 => "Windows1254",
            Encoding::Windows1255 => "Windows1255",
            Encoding::Windows1256 => "Windows1256",
            Encoding::Windows1257 => "Windows1257",
            Encoding::Windows1258 => "Windows1258",
            Encoding::Ibm437 => "Ibm437",
            Encoding::Ibm866 => "Ibm866",
            Encoding::ShiftJis => "ShiftJis",
            Encoding::Big5 => "Big5",
            Encoding::EucKr => "EucKr",
            Encoding::EucJp => "EucJp",
            Encoding::Iso2022Jp => "Iso2022Jp",
            Encoding::Gbk => "Gbk",
            Encoding::Gb18030 => "Gb18030",
            Encoding::Koi8R => "Koi8R",
            Encoding::Koi8U => "Koi8U",
            Encoding::Macintosh => "Macintosh",
            Encoding::MacCyrillic => "MacCyrillic",
            Encoding::Windows874 => "Windows874",
        }
    }

    /// The other spellings [`Encoding::for_label`] accepts. For Kaitai's encodings these are
    /// exactly the aliases of Kaitai 0.11's `EncodingList.scala` (a few extra common names,
    /// marked below, are accepted too); for the others, the WHATWG labels that do not mean
    /// something else here.
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Encoding::Ascii => &[
                "US-ASCII",
                "US_ASCII",
                "IBM367",
                "cp367",
                "csASCII",
                "iso-ir-6",
                // Not Kaitai's: the IANA name, which WHATWG maps to windows-1252.
                "ANSI_X3.4-1968",
            ],
            Encoding::Utf8 => &[
                "UTF8",
                "UTF_8",
                "ISO-10646/UTF-8",
                "ISO-10646/UTF8",
                "cp65001",
                "csUTF8",
                "unicode-1-1-utf-8",
                "unicode-2-0-utf-8",
            ],
            Encoding::Utf16Be => &[
                "UTF16BE",
                "UTF16-BE",
                "UTF-16-BE",
                "UTF_16BE",
                "UTF16_BE",
                "UTF_16_BE",
                "csUTF16BE",
            ],
            Encoding::Utf16Le => &[
                "UTF16LE",
                "UTF16-LE",
                "UTF-16-LE",
                "UTF_16LE",
                "UTF16_LE",
                "UTF_16_LE",
                "csUTF16LE",
            ],
            Encoding::Utf32Be => &[
                "UTF32BE",
                "UTF32-BE",
                "UTF-32-BE",
                "UTF_32BE",
                "UTF32_BE",
                "UTF_32_BE",
                "csUTF32BE",
            ],
            Encoding::Utf32Le => &[
                "UTF32LE",
                "UTF32-LE",
                "UTF-32-LE",
                "UTF_32LE",
                "UTF32_LE",
                "UTF_32_LE",
                "csUTF32LE",
            ],
            Encoding::Iso8859_1 => &[
                "ISO8859-1",
                "ISO_8859-1",
                "ISO88591",
                "ISO_8859_1",
                "ISO8859_1",
                "8859_1",
                "8859-1",
                "88591",
                "latin1",
                "latin-1",
                "latin_1",
                "L1",
                "csISOLatin1",
                "iso-ir-100",
                "IBM819",
                "cp819",
                "windows-28591",
            ],
            Encoding::Iso8859_2 => &[
                "ISO8859-2",
                "ISO_8859-2",
                "ISO88592",
                "ISO_8859_2",
                "ISO8859_2",
                "8859_2",
                "8859-2",
                "88592",
                "latin2",
                "latin-2",
                "latin_2",
                "L2",
                "csISOLatin2",
                "iso-ir-101",
                "IBM1111",
                "windows-28592",
            ],
            Encoding::Iso8859_3 => &[
                "ISO8859-3",
                "ISO_8859-3",
                "ISO88593",
                "ISO_8859_3",
                "ISO8859_3",
                "8859_3",
                "8859-3",
                "88593",
                "latin3",
                "latin-3",
                "latin_3",
                "L3",
                "csISOLatin3",
                "iso-ir-109",
                "windows-28593",
            ],
            Encoding::Iso8859_4 => &[
                "ISO8859-4",
                "ISO_8859-4",
                "ISO88594",
                "ISO_8859_4",
                "ISO8859_4",
                "8859_4",
                "8859-4",
                "88594",
                "latin4",
                "latin-4",
                "latin_4",
                "L4",
                "csISOLatin4",
                "iso-ir-110",
                "windows-28594",
            ],
            Encoding::Iso8859_5 => &[
                "ISO8859-5",
                "ISO_8859-5",
                "ISO88595",
                "ISO_8859_5",
                "ISO8859_5",
                "8859_5",
                "8859-5",
                "88595",
                "cyrillic",
                "csISOLatinCyrillic",
                "iso-ir-144",
                "windows-28595",
            ],
            Encoding::Iso8859_6 => &[
                "ISO8859-6",
                "ISO_8859-6",
                "ISO88596",
                "ISO_8859_6",
                "ISO8859_6",
                "8859_6",
                "8859-6",
                "88596",
                "arabic",
                "csISOLatinArabic",
                "iso-ir-127",
                "windows-28596",
                "ECMA-114",
                "ASMO-708",
            ],
            Encoding::Iso8859_7 => &[
                "ISO8859-7",
                "ISO_8859-7",
                "ISO88597",
                "ISO_8859_7",
                "ISO8859_7",
                "8859_7",
                "8859-7",
                "88597",
                "greek",
                "greek8",
                "csISOLatinGreek",
                "iso-ir-126",
                "windows-28597",
                "ECMA-118",
                "ELOT_928",
            ],
            Encoding::Iso8859_8 => &[
                "ISO8859-8",
                "ISO_8859-8",
                "ISO88598",
                "ISO_8859_8",
                "ISO8859_8",
                "8859_8",
                "8859-8",
                "88598",
                "hebrew",
                "csISOLatinHebrew",
                "iso-ir-138",
                "windows-28598",
                // Not Kaitai's: the logical-order label, whose bytes map the same way.
                "ISO-8859-8-I",
            ],
            Encoding::Iso8859_9 => &[
                "ISO8859-9",
                "ISO_8859-9",
                "ISO88599",
                "ISO_8859_9",
                "ISO8859_9",
                "8859_9",
                "8859-9",
                "88599",
                "latin5",
                "latin-5",
                "latin_5",
                "L5",
                "csISOLatin5",
                "iso-ir-148",
                "windows-28599",
            ],
            Encoding::Iso8859_10 => &[
                "ISO8859-10",
                "ISO_8859-10",
                "ISO885910",
                "ISO_8859_10",
                "ISO8859_10",
                "8859_10",
                "8859-10",
                "885910",
                "latin6",
                "latin-6",
                "latin_6",
                "L6",
                "csISOLatin6",
                "iso-ir-157",
            ],
            Encoding::Iso8859_11 => &[
                "ISO8859-11",
                "ISO_8859-11",
                "ISO885911",
                "ISO_8859_11",
                "ISO8859_11",
                "8859_11",
                "8859-11",
                "885911",
                "thai",
                "csTIS620",
                "TIS-620",
            ],
            Encoding::Iso8859_13 => &[
                "ISO8859-13",
                "ISO_8859-13",
                "ISO885913",
                "ISO_8859_13",
                "ISO8859_13",
                "8859_13",
                "8859-13",
                "885913",
                "latin7",
                "latin-7",
                "latin_7",
                "L7",
                "csISO885913",
                "windows-28603",
            ],
            Encoding::Iso8859_14 => &[
                "ISO8859-14",
                "ISO_8859-14",
                "ISO885914",
                "ISO_8859_14",
                "ISO8859_14",
                "8859_14",
                "8859-14",
                "885914",
                "latin8",
                "latin-8",
                "latin_8",
                "L8",
                "csISO885914",
                "iso-ir-199",
                "iso-celtic",
            ],
            Encoding::Iso8859_15 => &[
                "ISO8859-15",
                "ISO_8859-15",
                "ISO885915",
                "ISO_8859_15",
                "ISO8859_15",
                "8859_15",
                "8859-15",
                "885915",
                "latin9",
                "latin-9",
                "latin_9",
                "L9",
                "csISO885915",
                "windows-28605",
            ],
            Encoding::Iso8859_16 => &[
                "ISO8859-16",
                "ISO_8859-16",
                "ISO885916",
                "ISO_8859_16",
                "ISO8859_16",
                "8859_16",
                "8859-16",
                "885916",
                "latin10",
                "latin-10",
                "latin_10",
                "L10",
                "csISO885916",
            ],
            Encoding::Windows1250 => &["cp1250", "cswindows1250"],
            Encoding::Windows1251 => &["cp1251", "cswindows1251"],
            Encoding::Windows1252 => &["cp1252", "cswindows1252"],
            Encoding::Windows1253 => &["cp1253", "cswindows1253"],
            Encoding::Windows1254 => &["cp1254", "cswindows1254"],
            Encoding::Windows1255 => &["cp1255", "cswindows1255"],
            Encoding::Windows1256 => &["cp1256", "cswindows1256"],
            Encoding::Windows1257 => &["cp1257", "cswindows1257"],
            Encoding::Windows1258 => &["cp1258", "cswindows1258"],
            Encoding::Ibm437 => &["cp437", "437", "csPC8CodePage437"],
            Encoding::Ibm866 => &["cp866", "866", "csIBM866"],
            Encoding::ShiftJis => &[
                "Shift-JIS",
                "ShiftJIS",
                "S-JIS",
                "S_JIS",
                "SJIS",
                "PCK",
                "csShiftJIS",
                // Not Kaitai's: names of the Microsoft variant this implementation is.
                "windows-31j",
                "MS932",
                "cp932",
                "MS_Kanji",
                "x-sjis",
            ],
            Encoding::Big5 => &[
                "csBig5",
                // Not Kaitai's: WHATWG labels of the same decoder.
                "Big5-HKSCS",
                "cn-big5",
                "x-x-big5",
            ],
            Encoding::EucKr => &[
                "EUCKR",
                "EUC_KR",
                "csEUCKR",
                "korean",
                "iso-ir-149",
                // Not Kaitai's: names of the Microsoft superset this implementation is.
                "windows-949",
                "cp949",
                "ks_c_5601-1987",
                "ks_c_5601-1989",
                "ksc5601",
                "ksc_5601",
                "csKSC56011987",
            ],
            Encoding::EucJp => &["EUCJP", "EUC_JP", "csEUCPkdFmtJapanese", "x-euc-jp"],
            Encoding::Iso2022Jp => &["ISO2022JP", "ISO_2022_JP", "csISO2022JP"],
            Encoding::Gbk => &[
                "x-gbk",
                "cp936",
                "MS936",
                "windows-936",
                "GB2312",
                "GB_2312",
                "GB_2312-80",
                "csGB2312",
                "csISO58GB231280",
                "iso-ir-58",
                "chinese",
            ],
            Encoding::Gb18030 => &["GB-18030", "GB_18030"],
            Encoding::Koi8R => &["KOI8R", "KOI8_R", "csKOI8R", "koi", "koi8"],
            Encoding::Koi8U => &["KOI8U", "KOI8_U", "koi8-ru"],
            Encoding::Macintosh => &["mac", "MacRoman", "x-mac-roman", "csMacintosh"],
            Encoding::MacCyrillic => &["MacCyrillic", "x-mac-ukrainian"],
            Encoding::Windows874 => &["cp874", "dos-874"],
        }
    }

    /// Which implementation serves this encoding.
    fn backend(self) -> Backend {
        match self {
            Encoding::Ascii => Backend::Ascii,
            Encoding::Utf8 => Backend::Utf8,
            Encoding::Utf16Be => Backend::Utf16 { big_endian: true },
            Encoding::Utf16Le => Backend::Utf16 { big_endian: false },
            Encoding::Utf32Be => Backend::Utf32 { big_endian: true },
            Encoding::Utf32Le => Backend::Utf32 { big_endian: false },
            Encoding::Iso8859_1 => {
                Backend::Iso(IsoTable::get(&ISO_8859_1_TABLE, encoding_rs::WINDOWS_1252))
            }
            Encoding::Iso8859_9 => {
                Backend::Iso(IsoTable::get(&ISO_8859_9_TABLE, encoding_rs::WINDOWS_1254))
            }
            Encoding::Iso8859_11 => {
                Backend::Iso(IsoTable::get(&ISO_8859_11_TABLE, encoding_rs::WINDOWS_874))
            }
            Encoding::Ibm437 => Backend::Ibm437,
            Encoding::Iso8859_2 => Backend::Whatwg(encoding_rs::ISO_8859_2),
            Encoding::Iso8859_3 => Backend::Whatwg(encoding_rs::ISO_8859_3),
            Encoding::Iso8859_4 => Backend::Whatwg(encoding_rs::ISO_8859_4),
            Encoding::Iso8859_5 => Backend::Whatwg(encoding_rs::ISO_8859_5),
            Encoding::Iso8859_6 => Backend::Whatwg(encoding_rs::ISO_8859_6),
            Encoding::Iso8859_7 => Backend::Whatwg(encoding_rs::ISO_8859_7),
            Encoding::Iso8859_8 => Backend::Whatwg(encoding_rs::ISO_8859_8),
            Encoding::Iso8859_10 => Backend::Whatwg(encoding_rs::ISO_8859_10),
            Encoding::Iso8859_13 => Backend::Whatwg(encoding_rs::ISO_8859_13),
            Encoding::Iso8859_14 => Backend::Whatwg(encoding_rs::ISO_8859_14),
            Encoding::Iso8859_15 => Backend::Whatwg(encoding_rs::ISO_8859_15),
            Encoding::Iso8859_16 => Backend::Whatwg(encoding_rs::ISO_8859_16),
            Encoding::Windows1250 => Backend::Whatwg(encoding_rs::WINDOWS_1250),
            Encoding::Windows1251 => Backend::Whatwg(encoding_rs::WINDOWS_1251),
            Encoding::Windows1252 => Backend::Whatwg(encoding_rs::WINDOWS_1252),
            Encoding::Windows1253 => Backend::Whatwg(encoding_rs::WINDOWS_1253),
            Encoding::Windows1254 => Backend::Whatwg(encoding_rs::WINDOWS_1254),
            Encoding::Windows1255 => Backend::Whatwg(encoding_rs::WINDOWS_1255),
            Encoding::Windows1256 => Backend::Whatwg(encoding_rs::WINDOWS_1256),
            Encoding::Windows1257 => Backend::Whatwg(encoding_rs::WINDOWS_1257),
            Encoding::Windows1258 => Backend::Whatwg(encoding_rs::WINDOWS_1258),
            Encoding::Ibm866 => Backend::Whatwg(encoding_rs::IBM866),
            Encoding::ShiftJis => Backend::Whatwg(encoding_rs::SHIFT_JIS),
            Encoding::Big5 => Backend::Whatwg(encoding_rs::BIG5),
            Encoding::EucKr => Backend::Whatwg(encoding_rs::EUC_KR),
            Encoding::EucJp => Backend::Whatwg(encoding_rs::EUC_JP),
            Encoding::Iso2022Jp => Backend::Whatwg(encoding_rs::ISO_2022_JP),
            Encoding::Gbk => Backend::Whatwg(encoding_rs::GBK),
            Encoding::Gb18030 => Backend::Whatwg(encoding_rs::GB18030),
            Encoding::Koi8R => Backend::Whatwg(encoding_rs::KOI8_R),
            Encoding::Koi8U => Backend::Whatwg(encoding_rs::KOI8_U),
            Encoding::Macintosh => Backend::Whatwg(encoding_rs::MACINTOSH),
            Encoding::MacCyrillic => Backend::Whatwg(encoding_rs::X_MAC_CYRILLIC),
            Encoding::Windows874 => Backend::Whatwg(encoding_rs::WINDOWS_874),
        }
    }

    /// Bytes of one code unit: 1, 2 for UTF-16, 4 for UTF-32. A `strz` terminator in that
    /// encoding is that many zero bytes, found only at a multiple of this offset (see
    /// [`find_terminator`]).
    pub fn unit_len(self) -> usize {
        match self.backend() {
            Backend::Utf16 { .. } => 2,
            Backend::Utf32 { .. } => 4,
            _ => 1,
        }
    }

    /// The text of `bytes`; malformed sequences become U+FFFD (never panics, never fails).
    ///
    /// UTF-8, and ASCII-compatible encodings given only ASCII bytes, borrow `bytes`.
    /// ASCII decodes each byte 0x80-0xFF to U+FFFD, as Kaitai's Java runtime does (Python's
    /// runtime would raise instead; a decoder that never fails cannot, and
    /// [`Encoding::round_trips`] reports such bytes as not representable by text).
    /// A byte order mark is kept as U+FEFF, not stripped, so the text keeps every byte.
    pub fn decode(self, bytes: &[u8]) -> Cow<'_, str> {
        match self.backend() {
            Backend::Utf8 => String::from_utf8_lossy(bytes),
            Backend::Ascii => match ascii_str(bytes) {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(
                    bytes
                        .iter()
                        .map(|&b| {
                            if b.is_ascii() {
                                char::from(b)
                            } else {
                                REPLACEMENT
                            }
                        })
                        .collect(),
                ),
            },
            Backend::Utf16 { big_endian } => {
                let whatwg = if big_endian {
                    encoding_rs::UTF_16BE
                } else {
                    encoding_rs::UTF_16LE
                };
                whatwg.decode_without_bom_handling(bytes).0
            }
            Backend::Utf32 { big_endian } => Cow::Owned(decode_utf32(bytes, big_endian)),
            Backend::Iso(table) => match ascii_str(bytes) {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(bytes.iter().map(|&b| table.decode(b)).collect()),
            },
            Backend::Ibm437 => match ascii_str(bytes) {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(oem_cp::decode_string_complete_table(
                    bytes,
                    &oem_cp::code_table::DECODING_TABLE_CP437,
                )),
            },
            Backend::Whatwg(whatwg) => whatwg.decode_without_bom_handling(bytes).0,
        }
    }

    /// The bytes of `text`, or an error naming the first character the encoding cannot
    /// represent (e.g. "'é' (U+00E9) cannot be written in Shift_JIS"). No byte order mark
    /// is written. UTF-8, and ASCII text in an ASCII-compatible encoding, borrow `text`.
    pub fn encode(self, text: &str) -> Result<Cow<'_, [u8]>, String> {
        match self.backend() {
            Backend::Utf8 => Ok(Cow::Borrowed(text.as_bytes())),
            Backend::Ascii => match text.chars().find(|c| !c.is_ascii()) {
                None => Ok(Cow::Borrowed(text.as_bytes())),
                Some(c) => Err(self.unmappable(c)),
            },
            Backend::Utf16 { big_endian } => Ok(Cow::Owned(
                text.encode_utf16()
                    .flat_map(|unit| {
                        if big_endian {
                            unit.to_be_bytes()
                        } else {
                            unit.to_le_bytes()
                        }
                    })
                    .collect(),
            )),
            Backend::Utf32 { big_endian } => Ok(Cow::Owned(
                text.chars()
                    .flat_map(|c| {
                        let scalar = u32::from(c);
                        if big_endian {
                            scalar.to_be_bytes()
                        } else {
                            scalar.to_le_bytes()
                        }
                    })
                    .collect(),
            )),
            Backend::Iso(table) => self.encode_per_char(text, |c| table.encode(c)),
            Backend::Ibm437 => self.encode_per_char(text, |c| {
                oem_cp::encode_char_checked(c, &oem_cp::code_table::ENCODING_TABLE_CP437)
            }),
            Backend::Whatwg(whatwg) => {
                let (bytes, _, had_unmappable) = whatwg.encode(text);
                if !had_unmappable {
                    return Ok(bytes);
                }
                // `encode` wrote HTML numeric references for what it could not map, which
                // would corrupt the file; find the first such character to name it.
                Err(match first_unmappable(whatwg, text) {
                    Some(c) => self.unmappable(c),
                    None => format!("text cannot be written in {}", self.name()),
                })
            }
        }
    }

    /// True when `bytes` decode to a text that encodes back to exactly `bytes` (so the
    /// text alone can stand for them).
    pub fn round_trips(self, bytes: &[u8]) -> bool {
        match self.backend() {
            // Shortcuts for the common cases; the general path gives the same answer.
            Backend::Utf8 => std::str::from_utf8(bytes).is_ok(),
            Backend::Ascii => bytes.is_ascii(),
            _ => self
                .encode(&self.decode(bytes))
                .is_ok_and(|encoded| *encoded == *bytes),
        }
    }

    /// The error message for a character this encoding cannot represent.
    fn unmappable(self, c: char) -> String {
        format!(
            "{c:?} (U+{:04X}) cannot be written in {}",
            u32::from(c),
            self.name()
        )
    }

    /// Encodes a single-byte encoding one character at a time, borrowing ASCII text
    /// (every single-byte encoding here maps ASCII to itself).
    fn encode_per_char<'a>(
        self,
        text: &'a str,
        byte_of: impl Fn(char) -> Option<u8>,
    ) -> Result<Cow<'a, [u8]>, String> {
        if text.is_ascii() {
            return Ok(Cow::Borrowed(text.as_bytes()));
        }
        text.chars()
            .map(|c| byte_of(c).ok_or_else(|| self.unmappable(c)))
            .collect::<Result<Vec<u8>, String>>()
            .map(Cow::Owned)
    }
}

/// A string in an encoding is stored as its encoded bytes and read as UTF-8 text: decoding is
/// the `process` of its field (`rt::process::Decoded`), so that text that does not survive a
/// decode and encode round trip keeps its bytes until it is edited.
impl crate::process::Process for Encoding {
    fn decode<'d>(&self, stored: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        Ok(match Encoding::decode(*self, stored) {
            Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
            Cow::Owned(text) => Cow::Owned(text.into_bytes()),
        })
    }

    fn encode<'d>(&self, data: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        let text = std::str::from_utf8(data).map_err(|e| format!("the text is not UTF-8: {e}"))?;
        Encoding::encode(*self, text)
    }
}

impl fmt::Display for Encoding {
    /// Prints [`Encoding::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `bytes` as a `str` when they are all ASCII (ASCII is valid UTF-8, so they can be
/// borrowed as text unchanged).
fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        std::str::from_utf8(bytes).ok()
    } else {
        None
    }
}

/// Decodes UTF-32. Each 4-byte unit that is not a Unicode scalar value (a surrogate or
/// above U+10FFFF), and a trailing partial unit, become one U+FFFD, as Java's decoder does.
fn decode_utf32(bytes: &[u8], big_endian: bool) -> String {
    let chunks = bytes.chunks_exact(4);
    let partial = !chunks.remainder().is_empty();
    let mut text: String = chunks
        .map(|chunk| {
            let unit = [
                chunk.first().copied().unwrap_or(0),
                chunk.get(1).copied().unwrap_or(0),
                chunk.get(2).copied().unwrap_or(0),
                chunk.get(3).copied().unwrap_or(0),
            ];
            let scalar = if big_endian {
                u32::from_be_bytes(unit)
            } else {
                u32::from_le_bytes(unit)
            };
            char::from_u32(scalar).unwrap_or(REPLACEMENT)
        })
        .collect();
    if partial {
        text.push(REPLACEMENT);
    }
    text
}

/// The first character of `text` that `whatwg` cannot encode, found with `encoding_rs`'
/// encoder in its no-replacement mode, which stops right after that character.
fn first_unmappable(whatwg: &'static encoding_rs::Encoding, text: &str) -> Option<char> {
    let mut encoder = whatwg.new_encoder();
    // Large enough for any one character plus an escape sequence, so each call makes progress.
    let mut scratch = [0u8; 256];
    let mut rest = text;
    loop {
        let (result, read, _) =
            encoder.encode_from_utf8_without_replacement(rest, &mut scratch, true);
        let (consumed, unread) = rest.split_at_checked(read).unwrap_or((rest, ""));
        rest = unread;
        match result {
            encoding_rs::EncoderResult::InputEmpty => return None,
            encoding_rs::EncoderResult::OutputFull => {}
            // The character is the last one consumed. The reported one can differ: the
            // ISO-2022-JP encoder reports U+FFFD for ESC, SO and SI, which it refuses
            // because they would change its state.
            encoding_rs::EncoderResult::Unmappable(reported) => {
                return Some(consumed.chars().next_back().unwrap_or(reported));
            }
        }
    }
}

/// An ISO-8859 part that WHATWG replaces with a windows code page: identity for bytes
/// 0x00-0x9F (ASCII and the C1 controls, as ISO/IEC 8859 and Java/Python define it) and the
/// windows code page's characters for 0xA0-0xFF, where the two agree.
struct IsoTable {
    /// The characters of bytes 0xA0-0xFF; U+FFFD where the part leaves a byte undefined.
    high: [char; 96],
}

static ISO_8859_1_TABLE: OnceLock<IsoTable> = OnceLock::new();
static ISO_8859_9_TABLE: OnceLock<IsoTable> = OnceLock::new();
static ISO_8859_11_TABLE: OnceLock<IsoTable> = OnceLock::new();

impl IsoTable {
    /// The table in `cell`, built on first use from `windows`' mapping of 0xA0-0xFF.
    fn get(
        cell: &'static OnceLock<IsoTable>,
        windows: &'static encoding_rs::Encoding,
    ) -> &'static IsoTable {
        cell.get_or_init(|| {
            let mut high = [REPLACEMENT; 96];
            for (slot, byte) in high.iter_mut().zip(0xA0..=0xFFu8) {
                let one = [byte];
                let (text, _) = windows.decode_without_bom_handling(&one);
                *slot = text.chars().next().unwrap_or(REPLACEMENT);
            }
            IsoTable { high }
        })
    }

    /// The character of one byte.
    fn decode(&self, byte: u8) -> char {
        match byte.checked_sub(0xA0) {
            None => char::from(byte),
            Some(index) => self
                .high
                .get(usize::from(index))
                .copied()
                .unwrap_or(REPLACEMENT),
        }
    }

    /// The byte of one character, or `None` when the part has no such character.
    fn encode(&self, c: char) -> Option<u8> {
        if let Ok(byte) = u8::try_from(c)
            && byte < 0xA0
        {
            return Some(byte);
        }
        if c == REPLACEMENT {
            return None;
        }
        let index = self.high.iter().position(|&h| h == c)?;
        u8::try_from(index).ok().map(|index| 0xA0 + index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hex(s: &str) -> Vec<u8> {
        s.split_whitespace()
            .map(|h| u8::from_str_radix(h, 16).unwrap())
            .collect()
    }

    fn round(encoding: Encoding, text: &str, bytes: &[u8]) {
        assert_eq!(
            encoding.encode(text).unwrap().as_ref(),
            bytes,
            "{encoding} encode {text:?}"
        );
        assert_eq!(
            encoding.decode(bytes),
            text,
            "{encoding} decode {bytes:02x?}"
        );
        assert!(encoding.round_trips(bytes), "{encoding} round trip");
    }

    #[test]
    fn encoding_variant_names_match_debug() {
        for &e in Encoding::ALL {
            assert_eq!(e.variant_name(), format!("{e:?}"));
            assert_eq!(e.to_string(), e.name());
            assert_eq!(Encoding::for_label(e.name()), Some(e));
        }
    }

    #[test]
    fn encoding_all_is_complete_and_labels_unique() {
        let mut seen = std::collections::HashMap::new();
        for &e in Encoding::ALL {
            for label in std::iter::once(e.name()).chain(e.aliases().iter().copied()) {
                let previous = seen.insert(label.to_ascii_uppercase(), e);
                assert!(
                    previous.is_none() || previous == Some(e),
                    "{label} names {previous:?} and {e:?}"
                );
            }
        }
        let distinct: std::collections::HashSet<_> = Encoding::ALL.iter().collect();
        assert_eq!(distinct.len(), Encoding::ALL.len());
        assert_eq!(Encoding::ALL.len(), 44);
    }

    #[test]
    fn encoding_kaitai_labels_resolve() {
        use Encoding::*;
        let cases: &[(&str, Encoding)] = &[
            ("UTF-8", Utf8),
            ("utf-8", Utf8),
            ("utf8", Utf8),
            ("UTF_8", Utf8),
            ("cp65001", Utf8),
            ("ASCII", Ascii),
            ("ascii", Ascii),
            ("US-ASCII", Ascii),
            ("iso-ir-6", Ascii),
            ("UTF-16LE", Utf16Le),
            ("utf-16le", Utf16Le),
            ("UTF16-LE", Utf16Le),
            ("UTF-16BE", Utf16Be),
            ("utf_16_be", Utf16Be),
            ("UTF-32LE", Utf32Le),
            ("UTF32BE", Utf32Be),
            ("SJIS", ShiftJis),
            ("Shift_JIS", ShiftJis),
            ("shift-jis", ShiftJis),
            ("PCK", ShiftJis),
            ("CP437", Ibm437),
            ("IBM437", Ibm437),
            ("437", Ibm437),
            ("ISO-8859-1", Iso8859_1),
            ("iSo8859-1", Iso8859_1),
            ("latin1", Iso8859_1),
            ("Latin-1", Iso8859_1),
            ("L1", Iso8859_1),
            ("cp819", Iso8859_1),
            ("ISO-8859-9", Iso8859_9),
            ("latin5", Iso8859_9),
            ("TIS-620", Iso8859_11),
            ("ISO-8859-15", Iso8859_15),
            ("latin9", Iso8859_15),
            ("ISO-8859-16", Iso8859_16),
            ("greek", Iso8859_7),
            ("ASMO-708", Iso8859_6),
            ("windows-1251", Windows1251),
            ("cp1251", Windows1251),
            ("CP1252", Windows1252),
            ("cswindows1258", Windows1258),
            ("IBM866", Ibm866),
            ("cp866", Ibm866),
            ("Big5", Big5),
            ("csBig5", Big5),
            ("EUC-KR", EucKr),
            ("korean", EucKr),
            ("EUC-JP", EucJp),
            ("GB2312", Gbk),
            ("gb18030", Gb18030),
            ("koi8-r", Koi8R),
        ];
        for &(label, expected) in cases {
            assert_eq!(Encoding::for_label(label), Some(expected), "{label}");
        }
    }

    #[test]
    fn encoding_unknown_labels_are_none() {
        for label in [
            "",
            "foo",
            "UTF-7",
            "UTF-16",
            "UTF-32",
            "ISO-8859-12",
            "EBCDIC",
            " UTF-8",
            "UTF-8 ",
            "utf 8",
            "cp1259",
        ] {
            assert_eq!(Encoding::for_label(label), None, "{label:?}");
        }
    }

    #[test]
    fn encoding_unit_len() {
        assert_eq!(Encoding::Utf8.unit_len(), 1);
        assert_eq!(Encoding::ShiftJis.unit_len(), 1);
        assert_eq!(Encoding::Utf16Le.unit_len(), 2);
        assert_eq!(Encoding::Utf16Be.unit_len(), 2);
        assert_eq!(Encoding::Utf32Le.unit_len(), 4);
        assert_eq!(Encoding::Utf32Be.unit_len(), 4);
    }

    #[test]
    fn encoding_japanese() {
        // JIS X 0208 row 4 (hiragana): こ 04-19, ん 04-83, に 04-43, ち 04-33, は 04-47.
        round(
            Encoding::ShiftJis,
            "こんにちは",
            &hex("82 b1 82 f1 82 c9 82 bf 82 cd"),
        );
        round(
            Encoding::EucJp,
            "こんにちは",
            &hex("a4 b3 a4 f3 a4 cb a4 c1 a4 cf"),
        );
        round(
            Encoding::Iso2022Jp,
            "こんにちは",
            &hex("1b 24 42 24 33 24 73 24 4b 24 41 24 4f 1b 28 42"),
        );
        // Half-width katakana ｱ is one byte in Shift_JIS.
        round(Encoding::ShiftJis, "ｱ", &[0xB1]);
    }

    #[test]
    fn encoding_cjk_others() {
        round(Encoding::Gbk, "中文", &hex("d6 d0 ce c4"));
        round(Encoding::Gb18030, "中文", &hex("d6 d0 ce c4"));
        // GB18030 four-byte form: U+10000 is the first supplementary code, 90 30 81 30.
        round(Encoding::Gb18030, "\u{10000}", &hex("90 30 81 30"));
        round(Encoding::Big5, "中文", &hex("a4 a4 a4 e5"));
        round(Encoding::EucKr, "한국", &hex("c7 d1 b1 b9"));
    }

    #[test]
    fn encoding_utf16_and_utf32() {
        round(Encoding::Utf16Le, "hé", &hex("68 00 e9 00"));
        round(Encoding::Utf16Be, "hé", &hex("00 68 00 e9"));
        // U+1F600 is the surrogate pair D83D DE00.
        round(Encoding::Utf16Le, "😀", &hex("3d d8 00 de"));
        round(Encoding::Utf16Be, "😀", &hex("d8 3d de 00"));
        round(Encoding::Utf32Le, "a😀", &hex("61 00 00 00 00 f6 01 00"));
        round(Encoding::Utf32Be, "a😀", &hex("00 00 00 61 00 01 f6 00"));
        // A byte order mark is text like any other: kept, and not added by encode.
        round(Encoding::Utf16Le, "\u{FEFF}a", &hex("ff fe 61 00"));
        assert_eq!(Encoding::Utf16Le.encode("").unwrap().as_ref(), b"");
    }

    #[test]
    fn encoding_malformed_utf16_and_utf32() {
        // Unpaired surrogate, odd trailing byte.
        assert_eq!(Encoding::Utf16Le.decode(&hex("00 d8 61 00")), "\u{FFFD}a");
        assert_eq!(Encoding::Utf16Le.decode(&hex("61 00 62")), "a\u{FFFD}");
        assert!(!Encoding::Utf16Le.round_trips(&hex("00 d8 61 00")));
        assert!(!Encoding::Utf16Le.round_trips(&hex("61 00 62")));
        // A surrogate and a value above U+10FFFF are not scalar values; then a partial unit.
        assert_eq!(
            Encoding::Utf32Le.decode(&hex("00 d8 00 00 00 00 11 00 61 00 00 00 62")),
            "\u{FFFD}\u{FFFD}a\u{FFFD}"
        );
        assert!(!Encoding::Utf32Be.round_trips(&hex("00 11 00 00")));
        assert!(!Encoding::Utf32Be.round_trips(&hex("00 00 00")));
    }

    #[test]
    fn encoding_utf8_and_ascii() {
        let text = Encoding::Utf8.decode(b"caf\xc3\xa9");
        assert_eq!(text, "café");
        assert!(matches!(text, Cow::Borrowed(_)));
        assert_eq!(Encoding::Utf8.decode(b"a\xc3"), "a\u{FFFD}");
        assert!(!Encoding::Utf8.round_trips(b"a\xc3"));
        assert!(!Encoding::Utf8.round_trips(b"\xff"));
        assert!(Encoding::Utf8.round_trips("żółw".as_bytes()));

        assert!(matches!(
            Encoding::Ascii.decode(b"abc"),
            Cow::Borrowed("abc")
        ));
        assert_eq!(Encoding::Ascii.decode(b"a\x80\xffb"), "a\u{FFFD}\u{FFFD}b");
        assert!(!Encoding::Ascii.round_trips(b"a\x80"));
        assert!(Encoding::Ascii.round_trips(b"\x00\x7f"));
        assert_eq!(
            Encoding::Ascii.encode("café").unwrap_err(),
            "'é' (U+00E9) cannot be written in ASCII"
        );
    }

    #[test]
    fn encoding_ibm437() {
        assert_eq!(Encoding::Ibm437.decode(&[0xC9]), "╔");
        assert_eq!(Encoding::Ibm437.decode(&[0xB0]), "░");
        assert_eq!(Encoding::Ibm437.decode(&[0xCD, 0xBB]), "═╗");
        assert_eq!(Encoding::Ibm437.decode(&[0x80, 0xE1, 0xFF]), "Çß\u{A0}");
        // 0x00-0x7F are ASCII, controls included (not the ☺ glyphs).
        assert_eq!(Encoding::Ibm437.decode(&[0x01, 0x41]), "\u{1}A");
        round(Encoding::Ibm437, "╔═╗ π≈3", &hex("c9 cd bb 20 e3 f7 33"));
        assert_eq!(
            Encoding::Ibm437.encode("5€").unwrap_err(),
            "'€' (U+20AC) cannot be written in IBM437"
        );
        // Every byte is defined and maps to a distinct character.
        let all: Vec<u8> = (0..=255).collect();
        assert!(Encoding::Ibm437.round_trips(&all));
    }

    #[test]
    fn encoding_latin1_is_iso_not_windows() {
        assert_eq!(Encoding::Iso8859_1.decode(&[0xE9]), "é");
        assert_eq!(Encoding::Iso8859_1.decode(&[0x85]), "\u{85}");
        assert_eq!(Encoding::Iso8859_1.decode(&[0x80]), "\u{80}");
        // windows-1252, by contrast, has the euro sign and an ellipsis there.
        assert_eq!(Encoding::Windows1252.decode(&[0x80, 0x85]), "€…");
        let all: Vec<u8> = (0..=255).collect();
        let text: String = (0..=255u8).map(char::from).collect();
        round(Encoding::Iso8859_1, &text, &all);
        assert_eq!(
            Encoding::Iso8859_1.encode("5€").unwrap_err(),
            "'€' (U+20AC) cannot be written in ISO-8859-1"
        );
        assert!(Encoding::Iso8859_1.encode("\u{FFFD}").is_err());
    }

    #[test]
    fn encoding_other_iso_parts() {
        // ISO-8859-9 is Latin-1 with six Turkish letters; 0x80 stays a C1 control.
        assert_eq!(
            Encoding::Iso8859_9.decode(&hex("d0 dd de f0 fd fe e9 80")),
            "ĞİŞğış\u{e9}\u{80}"
        );
        round(Encoding::Iso8859_9, "Ğ\u{85}", &[0xD0, 0x85]);
        assert!(Encoding::Iso8859_9.encode("€").is_err());
        assert!(Encoding::Iso8859_9.encode("Ð").is_err());
        // ISO-8859-11: Thai at 0xA1 (ก U+0E01), 0xDB undefined, C1 at 0x80.
        assert_eq!(
            Encoding::Iso8859_11.decode(&hex("a1 db 80")),
            "ก\u{FFFD}\u{80}"
        );
        assert!(!Encoding::Iso8859_11.round_trips(&[0xDB]));
        assert!(Encoding::Iso8859_11.encode("€").is_err());
        assert_eq!(Encoding::Windows874.decode(&[0x80]), "€");
        // Parts that encoding_rs implements directly keep C1 controls too.
        assert_eq!(Encoding::Iso8859_2.decode(&hex("a1 85")), "Ą\u{85}");
        assert_eq!(Encoding::Iso8859_5.decode(&[0xB0]), "А");
        assert_eq!(Encoding::Iso8859_7.decode(&[0xC1]), "Α");
        assert_eq!(Encoding::Iso8859_15.decode(&[0xA4]), "€");
        // Every ISO-8859 part maps 0x80-0x9F to the C1 controls U+0080-U+009F.
        let c1: Vec<u8> = (0x80..=0x9F).collect();
        let c1_text: String = (0x80..=0x9Fu8).map(char::from).collect();
        for e in Encoding::ALL
            .iter()
            .filter(|e| e.name().starts_with("ISO-8859-"))
        {
            assert_eq!(e.decode(&c1), c1_text, "{e}");
            assert!(e.round_trips(&c1), "{e}");
        }
        // ISO-8859-3 leaves 0xA5 undefined.
        assert_eq!(Encoding::Iso8859_3.decode(&[0xA5]), "\u{FFFD}");
        assert!(!Encoding::Iso8859_3.round_trips(&[0xA5]));
    }

    #[test]
    fn encoding_cyrillic_and_mac() {
        round(Encoding::Windows1251, "Привет", &hex("cf f0 e8 e2 e5 f2"));
        round(Encoding::Koi8R, "Привет", &hex("f0 d2 c9 d7 c5 d4"));
        round(Encoding::Iso8859_5, "Привет", &hex("bf e0 d8 d2 d5 e2"));
        round(Encoding::Ibm866, "Привет", &hex("8f e0 a8 a2 a5 e2"));
        round(Encoding::Macintosh, "Äé", &hex("80 8e"));
    }

    #[test]
    fn encoding_refuses_unrepresentable_text() {
        assert_eq!(
            Encoding::ShiftJis.encode("café").unwrap_err(),
            "'é' (U+00E9) cannot be written in Shift_JIS"
        );
        assert_eq!(
            Encoding::Windows1251.encode("Ж and 日").unwrap_err(),
            "'日' (U+65E5) cannot be written in windows-1251"
        );
        assert_eq!(
            Encoding::Iso2022Jp.encode("a\u{1b}").unwrap_err(),
            "'\\u{1b}' (U+001B) cannot be written in ISO-2022-JP"
        );
        // The first offending character is named, even after more output than one
        // internal buffer holds.
        let long = format!("{}éü", "日".repeat(300));
        assert_eq!(
            Encoding::ShiftJis.encode(&long).unwrap_err(),
            "'é' (U+00E9) cannot be written in Shift_JIS"
        );
        assert!(Encoding::Gbk.encode("😀").is_err());
        assert!(Encoding::EucKr.encode("\u{FFFD}").is_err());
    }

    #[test]
    fn encoding_legacy_round_trips() {
        // A lead byte with no trail byte, or with an invalid one.
        assert!(!Encoding::ShiftJis.round_trips(&[0x82]));
        assert!(!Encoding::ShiftJis.round_trips(&[0x82, 0x20]));
        assert_eq!(Encoding::ShiftJis.decode(&[0x82]), "\u{FFFD}");
        // ED 40 is an NEC-selected IBM extension (纊 U+7E8A) that encoders write as FA 5C,
        // so the text does not stand for these bytes.
        assert_eq!(Encoding::ShiftJis.decode(&[0xED, 0x40]), "纊");
        assert!(!Encoding::ShiftJis.round_trips(&[0xED, 0x40]));
        assert!(Encoding::ShiftJis.round_trips(&[0xFA, 0x5C]));
        // A redundant escape to ASCII decodes to nothing.
        assert!(!Encoding::Iso2022Jp.round_trips(b"\x1b(Ba"));
        assert!(Encoding::Windows1252.round_trips(b"caf\xe9"));
    }

    #[test]
    fn encoding_borrows_ascii() {
        for &e in Encoding::ALL {
            if e.unit_len() == 1 && e != Encoding::Iso2022Jp {
                assert!(matches!(e.decode(b"abc"), Cow::Borrowed("abc")), "{e}");
                assert!(matches!(e.encode("abc"), Ok(Cow::Borrowed(b"abc"))), "{e}");
            }
        }
    }

    #[test]
    fn encoding_find_terminator() {
        // UTF-16LE "a" then the bytes 00 62 00 00 00: a 00 00 pair starts at offset 1
        // (straddling two units) and the first aligned pair is at offset 4.
        let bytes = hex("61 00 00 62 00 00 00");
        assert_eq!(find_terminator(&bytes, 0, 2), Some(4));
        assert_eq!(find_terminator(&bytes, 0, 1), Some(1));
        assert_eq!(find_terminator(&bytes, 0, 0), Some(1));
        assert_eq!(find_terminator(&hex("61 00 00 62"), 0, 2), None);
        // A trailing partial unit is not a terminator.
        assert_eq!(find_terminator(&hex("61 00 00"), 0, 2), None);
        assert_eq!(
            find_terminator(&hex("61 00 00 00 00 00 00 00"), 0, 4),
            Some(4)
        );
        assert_eq!(find_terminator(b"ab|cd", b'|', 1), Some(2));
        assert_eq!(find_terminator(b"", 0, 1), None);
    }

    proptest! {
        #[test]
        fn encoding_decode_total_and_round_trips_sound(
            bytes in proptest::collection::vec(any::<u8>(), 0..48),
        ) {
            for &e in Encoding::ALL {
                let text = e.decode(&bytes);
                if e.round_trips(&bytes) {
                    let encoded = e.encode(&text);
                    prop_assert_eq!(encoded.as_deref(), Ok(bytes.as_slice()), "{}", e);
                }
            }
        }

        #[test]
        fn encoding_round_trips_sound_on_encoded_text(
            text in "[a-z\\\\~ \\x00-\\x1f\\u{80}-\\u{24f}\\u{400}-\\u{45f}\\u{3040}-\\u{30ff}\\u{4e00}-\\u{4e3f}\\u{ac00}-\\u{ac3f}\\u{2500}-\\u{257f}\\u{ff61}-\\u{ff9f}]{0,12}",
        ) {
            // Encoded text gives byte strings that mostly do decode cleanly, which random
            // bytes rarely do in the multi-byte encodings.
            for &e in Encoding::ALL {
                if let Ok(bytes) = e.encode(&text)
                    && e.round_trips(&bytes)
                {
                    let again = e.encode(&e.decode(&bytes)).map(Cow::into_owned);
                    prop_assert_eq!(again, Ok(bytes.into_owned()), "{}", e);
                }
            }
        }

        #[test]
        fn encoding_unicode_forms_encode_everything(text in ".{0,24}") {
            for e in [
                Encoding::Utf8,
                Encoding::Utf16Le,
                Encoding::Utf16Be,
                Encoding::Utf32Le,
                Encoding::Utf32Be,
            ] {
                let bytes = e.encode(&text).unwrap();
                prop_assert_eq!(e.decode(&bytes), text.as_str(), "{}", e);
                prop_assert!(e.round_trips(&bytes), "{}", e);
            }
        }
    }
}
