//! Every sample in `samples/` decodes, matches its reviewed snapshot (`tests/snapshots/`) and
//! re-encodes byte for byte. Your own WAV files are checked too, round trip only, from the
//! folder `WAV_FILES` names: `WAV_FILES=~/Music cargo test -p skelcodec-example-wav`.

skelcodec::snapshot_tests!(wav: skelcodec_example_wav::Wav,
    fixtures = "samples/*.wav",
    corpus = "**/*.wav",
    corpus_env = "WAV_FILES");
