//! HTTPS for the stand-in: a certificate authority made for one test, and a server
//! certificate it signed, so that a test can prove which clients trust what.
//!
//! The CA exists only in memory and only for the test that made it; nothing here touches a
//! system trust store.

use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A certificate authority made at run time, with a server certificate it signed for
/// `127.0.0.1` and `localhost`.
pub struct TestCa {
    ca_der: Vec<u8>,
    ca_pem: String,
    server_der: Vec<u8>,
    server_key_der: Vec<u8>,
}

impl std::fmt::Debug for TestCa {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("TestCa").finish_non_exhaustive()
    }
}

impl TestCa {
    /// A new CA called `name` and a server certificate it signed.
    ///
    /// # Panics
    ///
    /// Panics if key generation or signing fails, which in a test means the crypto library
    /// itself is broken.
    pub fn new(name: &str) -> TestCa {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.distinguished_name.push(DnType::CommonName, name);
        ca_params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca_key = KeyPair::generate().expect("a CA key");
        let ca = CertifiedIssuer::self_signed(ca_params, ca_key).expect("a self-signed CA");

        let mut server_params =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
                .expect("server parameters");
        server_params
            .distinguished_name
            .push(DnType::CommonName, "zayavka-standin");
        let server_key = KeyPair::generate().expect("a server key");
        let server = server_params
            .signed_by(&server_key, &ca)
            .expect("a server certificate");
        TestCa {
            ca_der: ca.der().to_vec(),
            ca_pem: ca.pem(),
            server_der: server.der().to_vec(),
            server_key_der: server_key.serialize_der(),
        }
    }

    /// The CA certificate in DER form.
    pub fn certificate_der(&self) -> &[u8] {
        &self.ca_der
    }

    /// The CA certificate in PEM form.
    pub fn certificate_pem(&self) -> &str {
        &self.ca_pem
    }

    /// An acceptor that presents the server certificate (and the CA above it).
    pub(crate) fn acceptor(&self) -> TlsAcceptor {
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let chain = vec![
            CertificateDer::from(self.server_der.clone()),
            CertificateDer::from(self.ca_der.clone()),
        ];
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.server_key_der.clone()));
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("the default protocol versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("the server certificate and key match");
        TlsAcceptor::from(Arc::new(config))
    }
}
