//! Fuzz target `fpgdl`: [`tilesmith_tests::fuzz::fpgdl`] on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilesmith_tests::fuzz::fpgdl(data));
