//! A photo handed in for a draft: format recognition, decoding within the limits, turning
//! upright and metadata stripping. What comes out carries no metadata and is accepted again.

use zayavka_document::{PhotoFormat, metadata_left, prepare_photo};

/// Checks one input.
pub fn check(data: &[u8]) {
    let _ = PhotoFormat::sniff(data);
    let _ = metadata_left(data);
    if let Ok(prepared) = prepare_photo(data) {
        assert!(
            metadata_left(&prepared.bytes).is_empty(),
            "metadata survived"
        );
        let again = prepare_photo(&prepared.bytes).expect("a prepared photo is accepted again");
        assert_eq!(
            (again.width, again.height),
            (prepared.width, prepared.height)
        );
    }
}
