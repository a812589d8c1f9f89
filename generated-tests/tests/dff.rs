//! RenderWare DFF: snapshots of the project's fixtures, round trips of the shared corpus.

skelcodec_macros::snapshot_tests!(dff_samples: skelcodec_formats::dff::Dff,
    fixtures = "fixtures/dff/**/*.dff",
    corpus = "rw/dff/**/*.dff");
