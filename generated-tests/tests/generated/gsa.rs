//! SWAT 3 GSA: snapshots of the project's fixtures (no real file is public).

skelcodec_macros::snapshot_tests!(gsa_samples: skelcodec_formats::gsa::Gsa,
    fixtures = "fixtures/gsa/*.gsa");
