//! BattleForge DRS: snapshots of the project's fixtures (no public .drs file exists).

skelcodec_macros::snapshot_tests!(drs_samples: skelcodec_formats::drs::Drs,
    fixtures = "fixtures/drs/*.drs");
