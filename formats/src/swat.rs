//! SWAT 3 animations: typed events and conversion between exporter versions 4.1 and 4.2,
//! done on the generated types (never by patching bytes).

use skelcodec_runtime::VarStr;

use crate::gsa::{Event, EventList, Gsa};

/// What a frame event does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// `LLIFT`
    LeftLift,
    /// `LPLANT`
    LeftPlant,
    /// `RLIFT`
    RightLift,
    /// `RPLANT`
    RightPlant,
    /// `sound=NAME`: play NAME from sounds.dat.
    Sound(String),
    /// `itemsound=NAME`: play `NAME_<held item>` from sounds.dat.
    ItemSound(String),
    /// Anything else, as stored (without the terminator).
    Other(Vec<u8>),
}

impl Event {
    /// The decoded event.
    pub fn kind(&self) -> EventKind {
        let text = self.name.text_bytes();
        match text {
            b"LLIFT" => EventKind::LeftLift,
            b"LPLANT" => EventKind::LeftPlant,
            b"RLIFT" => EventKind::RightLift,
            b"RPLANT" => EventKind::RightPlant,
            _ => {
                let as_text = std::str::from_utf8(text).ok();
                match as_text.and_then(|t| t.split_once('=')) {
                    Some(("sound", name)) => EventKind::Sound(name.to_owned()),
                    Some(("itemsound", name)) => EventKind::ItemSound(name.to_owned()),
                    _ => EventKind::Other(text.to_vec()),
                }
            }
        }
    }

    /// An event as the exporter writes it: the name, a NUL, and its length including the NUL.
    pub fn new(kind: &EventKind) -> Self {
        let text: Vec<u8> = match kind {
            EventKind::LeftLift => b"LLIFT".to_vec(),
            EventKind::LeftPlant => b"LPLANT".to_vec(),
            EventKind::RightLift => b"RLIFT".to_vec(),
            EventKind::RightPlant => b"RPLANT".to_vec(),
            EventKind::Sound(name) => format!("sound={name}").into_bytes(),
            EventKind::ItemSound(name) => format!("itemsound={name}").into_bytes(),
            EventKind::Other(raw) => raw.clone(),
        };
        let mut raw = text;
        raw.push(0);
        Self {
            length: u16::try_from(raw.len()).unwrap_or(u16::MAX),
            name: VarStr::from_raw(raw),
        }
    }
}

/// An exporter version of a GSA file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GsaVersion {
    /// 4.1: no events.
    V4_1,
    /// 4.2: events in every frame.
    V4_2,
}

impl std::str::FromStr for GsaVersion {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "gsa-4.1" | "4.1" => Ok(Self::V4_1),
            "gsa-4.2" | "4.2" => Ok(Self::V4_2),
            other => Err(format!(
                "unknown GSA version `{other}`: use gsa-4.1 or gsa-4.2"
            )),
        }
    }
}

/// Why a conversion cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// Converting to 4.1 would drop events.
    #[error(
        "frame {frame} has {count} event(s), which version 4.1 cannot hold; nothing was converted"
    )]
    EventsWouldBeLost {
        /// The first frame with events.
        frame: usize,
        /// How many it has.
        count: usize,
    },
    /// The file is of a version this conversion does not know.
    #[error("the file is version {major}.{minor}, not 4.1 or 4.2")]
    UnknownVersion {
        /// Major version byte.
        major: u8,
        /// Minor version byte.
        minor: u8,
    },
}

impl Gsa {
    /// The exporter version, when it is 4.1 or 4.2.
    pub fn version(&self) -> Option<GsaVersion> {
        match (self.version_major, self.version_minor) {
            (4, 1) => Some(GsaVersion::V4_1),
            (4, 2) => Some(GsaVersion::V4_2),
            _ => None,
        }
    }

    /// The same animation in another exporter version: 4.1 → 4.2 gives every frame an empty
    /// event list; 4.2 → 4.1 refuses when any frame has events.
    pub fn converted(&self, to: GsaVersion) -> Result<Gsa, ConvertError> {
        if self.version().is_none() {
            return Err(ConvertError::UnknownVersion {
                major: self.version_major,
                minor: self.version_minor,
            });
        }
        let mut out = self.clone();
        match to {
            GsaVersion::V4_2 => {
                out.version_minor = 2;
                for frame in &mut out.frames {
                    frame.events.get_or_insert_with(|| EventList {
                        num_events: 0,
                        events: Vec::new(),
                    });
                }
            }
            GsaVersion::V4_1 => {
                let with_events = self.frames.iter().enumerate().find_map(|(i, f)| {
                    let count = f.events.as_ref().map_or(0, |e| e.events.len());
                    (count > 0).then_some((i, count))
                });
                if let Some((frame, count)) = with_events {
                    return Err(ConvertError::EventsWouldBeLost { frame, count });
                }
                out.version_minor = 1;
                for frame in &mut out.frames {
                    frame.events = None;
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_decode_and_encode() {
        for kind in [
            EventKind::LeftLift,
            EventKind::LeftPlant,
            EventKind::RightLift,
            EventKind::RightPlant,
            EventKind::Sound("cuff".into()),
            EventKind::ItemSound("magout".into()),
            EventKind::Other(b"STEP".to_vec()),
        ] {
            let event = Event::new(&kind);
            assert_eq!(event.kind(), kind);
            assert_eq!(usize::from(event.length), event.name.len());
            assert_eq!(event.name.as_bytes().last(), Some(&0));
        }
        assert_eq!(Event::new(&EventKind::Sound("cuff".into())).length, 11);
    }
}
