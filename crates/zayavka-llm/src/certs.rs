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

    #[test]
    fn the_test_sha256_agrees_with_the_published_test_vectors() {
        assert_eq!(
            fingerprint(&sha256(b"")),
            "E3:B0:C4:42:98:FC:1C:14:9A:FB:F4:C8:99:6F:B9:24:27:AE:41:E4:64:9B:93:4C:A4:95:99:1B:78:52:B8:55"
        );
        assert_eq!(
            fingerprint(&sha256(b"abc")),
            "BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"
        );
        assert_eq!(
            fingerprint(&sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "24:8D:6A:61:D2:06:38:B8:E5:C0:26:93:0C:3E:60:39:A3:3C:E4:59:64:FF:21:67:F6:EC:ED:D4:19:DB:06:C1"
        );
    }

    /// The DER bytes of the single certificate in `pem`: the base64 between the BEGIN and END
    /// lines, whitespace (LF or CRLF) ignored.
    fn pem_to_der(pem: &[u8]) -> Vec<u8> {
        let text = std::str::from_utf8(pem).unwrap();
        let (_, rest) = text.split_once("-----BEGIN CERTIFICATE-----").unwrap();
        let (body, _) = rest.split_once("-----END CERTIFICATE-----").unwrap();
        let mut out = Vec::new();
        let (mut acc, mut bits) = (0_u32, 0_u32);
        for c in body.bytes().filter(|c| !c.is_ascii_whitespace()) {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' => break,
                _ => panic!("not base64: {c:#04x}"),
            };
            acc = (acc << 6) | u32::from(v);
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
                acc &= (1 << bits) - 1;
            }
        }
        out
    }

    fn fingerprint(digest: &[u8; 32]) -> String {
        digest
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(":")
    }

    /// SHA-256 (FIPS 180-4), so that this check needs no dependency of its own; the test above
    /// pins it to the standard's test vectors.
    fn sha256(data: &[u8]) -> [u8; 32] {
        const K: [u32; 64] = [
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
            0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
            0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
            0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
            0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
            0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
            0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
            0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
            0xc67178f2,
        ];
        let mut h: [u32; 8] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
            0x5be0cd19,
        ];
        let mut message = data.to_vec();
        message.push(0x80);
        while message.len() % 64 != 56 {
            message.push(0);
        }
        message.extend_from_slice(&(data.len() as u64 * 8).to_be_bytes());
        for block in message.chunks_exact(64) {
            let mut w = [0_u32; 64];
            for (i, word) in block.chunks_exact(4).enumerate() {
                w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
            }
            for i in 16..64 {
                let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
                let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
                w[i] = w[i - 16]
                    .wrapping_add(s0)
                    .wrapping_add(w[i - 7])
                    .wrapping_add(s1);
            }
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
            for i in 0..64 {
                let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
                let ch = (e & f) ^ (!e & g);
                let t1 = hh
                    .wrapping_add(s1)
                    .wrapping_add(ch)
                    .wrapping_add(K[i])
                    .wrapping_add(w[i]);
                let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
                let maj = (a & b) ^ (a & c) ^ (b & c);
                let t2 = s0.wrapping_add(maj);
                hh = g;
                g = f;
                f = e;
                e = d.wrapping_add(t1);
                d = c;
                c = b;
                b = a;
                a = t1.wrapping_add(t2);
            }
            for (state, value) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
                *state = state.wrapping_add(value);
            }
        }
        let mut digest = [0_u8; 32];
        for (chunk, word) in digest.chunks_exact_mut(4).zip(h) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        digest
    }
}
