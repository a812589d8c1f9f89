//! The Sims 2: snapshots of the project's ANIM fixtures, round trips of the shared corpus.

skelcodec_macros::snapshot_tests!(sims2_samples: skelcodec_formats::sims2_anim::Sims2Anim,
    fixtures = "fixtures/sims2/*.5an",
    corpus = "sims2/*.5an");

skelcodec_macros::snapshot_tests!(package_samples: skelcodec_formats::dbpf::Dbpf,
    corpus = "sims2/*.package");
