//! Root certificates Zayavka ships for providers whose chains no default trust store holds.

/// The «Russian Trusted Root CA» of the Ministry of Digital Development and Communications of the
/// Russian Federation (Минцифры России), as PEM.
///
/// Sber's GigaChat hosts (`ngw.devices.sberbank.ru`, `gigachat.devices.sberbank.ru`) present
/// certificates that chain to this root, and no default trust store (Mozilla's, hence
/// `webpki-roots`, nor Windows', macOS' or Debian's) holds it. It is public data: subject = issuer
/// = `C=RU, O=The Ministry of Digital Development and Communications, CN=Russian Trusted Root
/// CA`, RSA 4096, serial `0x1000`, basicConstraints `CA:TRUE, pathlen:4`, valid from
/// 2022-03-01 21:04:15 UTC to **2032-02-27 21:04:15 UTC**. Its official SHA-256 fingerprint is
/// `D2:6D:2D:02:31:B7:C3:9F:92:CC:73:85:12:BA:54:10:35:19:E4:40:5D:68:B5:BD:70:3E:97:88:CA:8E:CF:31`,
/// and a test below checks these bytes against it.
///
/// It is trusted **only** for the GigaChat profile's hosts, in addition to the usual roots, and
/// certificate verification is never turned off. Where the bytes came from, how they were
/// checked and what a maintainer does when the root expires or is replaced:
/// `docs/adr/0020-russian-trusted-root-ca.md`.
pub const RUSSIAN_TRUSTED_ROOT_CA_PEM: &[u8] =
    include_bytes!("../certs/russian_trusted_root_ca.pem");

#[cfg(test)]
mod tests {
    use super::RUSSIAN_TRUSTED_ROOT_CA_PEM;

    /// The official SHA-256 fingerprint of the Russian Trusted Root CA (of its DER encoding).
    const OFFICIAL_SHA256: &str = "D2:6D:2D:02:31:B7:C3:9F:92:CC:73:85:12:BA:54:10:35:19:E4:40:5D:68:B5:BD:70:3E:97:88:CA:8E:CF:31";

    #[test]
    fn russian_trusted_root_ca_matches_the_official_fingerprint() {
        let der = pem_to_der(RUSSIAN_TRUSTED_ROOT_CA_PEM);
        assert_eq!(fingerprint(&sha256(&der)), OFFICIAL_SHA256);
    }

    #[test]
    fn russian_trusted_root_ca_is_one_certificate_with_its_subject_and_validity() {
        let text = std::str::from_utf8(RUSSIAN_TRUSTED_ROOT_CA_PEM).unwrap();
        assert_eq!(text.matches("-----BEGIN CERTIFICATE-----").count(), 1);
        let der = pem_to_der(RUSSIAN_TRUSTED_ROOT_CA_PEM);
        let contains = |needle: &[u8]| der.windows(needle.len()).any(|w| w == needle);
        assert!(contains(b"Russian Trusted Root CA"));
        assert!(contains(
            b"The Ministry of Digital Development and Communications"
        ));
        // notBefore and notAfter as UTCTime: 2022-03-01 21:04:15 Z and 2032-02-27 21:04:15 Z.
        assert!(contains(b"220301210415Z"));
        assert!(contains(b"320227210415Z"));
    }

    #[test]
    fn russian_trusted_root_ca_loads_as_a_reqwest_certificate() {
        reqwest::Certificate::from_pem(RUSSIAN_TRUSTED_ROOT_CA_PEM).unwrap();
    }

    /// The DER bytes of the single certificate in `pem`.
    fn pem_to_der(pem: &[u8]) -> Vec<u8> {
        use rustls_pki_types::CertificateDer;
        use rustls_pki_types::pem::PemObject as _;
        CertificateDer::from_pem_slice(pem).unwrap().to_vec()
    }

    fn sha256(data: &[u8]) -> [u8; 32] {
        use sha2::Digest as _;
        sha2::Sha256::digest(data).into()
    }

    fn fingerprint(digest: &[u8; 32]) -> String {
        digest
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(":")
    }
}
