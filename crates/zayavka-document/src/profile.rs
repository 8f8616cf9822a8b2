//! The resident's profile as a document's header reads it: the fields, their names and limits,
//! and the values. Reading, checking and storing a profile are the engine's.

use serde::Serialize;
use zayavka_codes::stable_codes;

stable_codes! {
    /// One field of the profile.
    pub enum ProfileField {
        /// The resident's full name (фамилия, имя, отчество).
        FullName => "full_name",
        /// The resident's address: the building.
        Address => "address",
        /// The apartment number.
        Apartment => "apartment",
        /// A phone number for the management company to call back.
        Phone => "phone",
        /// An e-mail address for the answer.
        Email => "email",
        /// The management company's name.
        CompanyName => "company_name",
        /// The management company's address.
        CompanyAddress => "company_address",
    }
}

impl ProfileField {
    /// The field's name for the resident.
    pub fn label_ru(self) -> &'static str {
        match self {
            ProfileField::FullName => "ФИО",
            ProfileField::Address => "Адрес",
            ProfileField::Apartment => "Квартира",
            ProfileField::Phone => "Телефон",
            ProfileField::Email => "Эл. почта",
            ProfileField::CompanyName => "Управляющая организация",
            ProfileField::CompanyAddress => "Адрес управляющей организации",
        }
    }

    /// The most characters (Unicode scalar values) the field takes.
    pub fn max_chars(self) -> usize {
        match self {
            ProfileField::FullName => 150,
            ProfileField::Address => 300,
            ProfileField::Apartment => 20,
            ProfileField::Phone => 40,
            ProfileField::Email => 254,
            ProfileField::CompanyName => 200,
            ProfileField::CompanyAddress => 300,
        }
    }
}

/// The resident's profile: seven one-line values, a missing field `None`.
///
/// A value type: it prints what it holds. The engine checks every value a resident types
/// (`zayavka_engine::profile::check_value`: one line, no invisible characters, within the
/// field's limit) before it builds a profile from it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Profile {
    full_name: Option<String>,
    address: Option<String>,
    apartment: Option<String>,
    phone: Option<String>,
    email: Option<String>,
    company_name: Option<String>,
    company_address: Option<String>,
}

impl Profile {
    /// The value of a field, if the resident gave one.
    pub fn get(&self, field: ProfileField) -> Option<&str> {
        self.slot(field).as_deref()
    }

    /// Whether no field is filled.
    pub fn is_empty(&self) -> bool {
        ProfileField::ALL
            .iter()
            .all(|field| self.get(*field).is_none())
    }

    /// The profile with `field` holding `value`; `None` clears it. The value is kept as given:
    /// checking it is the caller's (see [`Profile`]).
    pub fn with_value(mut self, field: ProfileField, value: Option<String>) -> Profile {
        *self.slot_mut(field) = value;
        self
    }

    fn slot(&self, field: ProfileField) -> &Option<String> {
        match field {
            ProfileField::FullName => &self.full_name,
            ProfileField::Address => &self.address,
            ProfileField::Apartment => &self.apartment,
            ProfileField::Phone => &self.phone,
            ProfileField::Email => &self.email,
            ProfileField::CompanyName => &self.company_name,
            ProfileField::CompanyAddress => &self.company_address,
        }
    }

    fn slot_mut(&mut self, field: ProfileField) -> &mut Option<String> {
        match field {
            ProfileField::FullName => &mut self.full_name,
            ProfileField::Address => &mut self.address,
            ProfileField::Apartment => &mut self.apartment,
            ProfileField::Phone => &mut self.phone,
            ProfileField::Email => &mut self.email,
            ProfileField::CompanyName => &mut self.company_name,
            ProfileField::CompanyAddress => &mut self.company_address,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_names_pass_the_shared_check() {
        zayavka_codes::check_stable_codes::<ProfileField>().unwrap();
    }
}
