//! Fuzz target `level`: [`tilesmith_tests::fuzz::level`] on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilesmith_tests::fuzz::level(data));
