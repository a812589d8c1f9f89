//! RenderWare DFF: snapshots of the project's fixtures, round trips of the shared corpus.

skelcodec_macros::snapshot_tests!(dff_samples: skelcodec_formats::dff::Dff,
    fixtures = "fixtures/dff/**/*.dff",
    corpus = "rw/dff/**/*.dff");

// Texture dictionaries are RenderWare streams too, read by the same codec.
skelcodec_macros::snapshot_tests!(txd_samples: skelcodec_formats::dff::Dff,
    fixtures = "fixtures/dff/**/*.txd");
