//! GTA IFP: snapshots of the project's fixtures, round trips of the shared corpus.

skelcodec_macros::snapshot_tests!(ifp_samples: skelcodec_formats::ifp::Ifp,
    fixtures = "fixtures/ifp/**/*.ifp",
    corpus = "ifp/**/*.ifp");
