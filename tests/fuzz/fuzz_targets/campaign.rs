//! Fuzz target `campaign`: [`tilesmith_tests::fuzz::campaign`] on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilesmith_tests::fuzz::campaign(data));
