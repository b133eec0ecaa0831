//! The tokens `--auth` probes with: the valid one (`--bearer TOKEN`) and the ones a checker
//! cannot forge (`--bearer-for ROLE=TOKEN`).

/// A role of `--bearer-for`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// A token the issuer signed that is past its `exp`.
    Expired,
    /// A token the issuer signed for another resource (`aud`).
    WrongAudience,
    /// A valid token for this resource that lacks a scope the endpoint needs.
    InsufficientScope,
}

impl Role {
    /// Every role, as `--bearer-for` spells it.
    pub const ALL: [Role; 3] = [Role::Expired, Role::WrongAudience, Role::InsufficientScope];

    /// The name `--bearer-for` takes.
    pub fn name(self) -> &'static str {
        match self {
            Role::Expired => "expired",
            Role::WrongAudience => "wrong-audience",
            Role::InsufficientScope => "insufficient-scope",
        }
    }
}

/// The tokens given on the command line.
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    /// `--bearer`: a valid token for the endpoint.
    pub bearer: Option<String>,
    /// `--bearer-for`, by role.
    pub roles: Vec<(Role, String)>,
}

impl Tokens {
    /// The tokens of `--bearer` and each `--bearer-for ROLE=TOKEN`; an unknown role, a value
    /// without `=`, an empty token or a role given twice is an error.
    ///
    /// ```
    /// use mcpwire_cli::check::auth::tokens::{Role, Tokens};
    /// let tokens = Tokens::parse(Some("t0"), &["expired=t1".into()]).unwrap();
    /// assert_eq!(tokens.role(Role::Expired), Some("t1"));
    /// assert!(Tokens::parse(None, &["stale=t1".into()]).is_err());
    /// ```
    pub fn parse(bearer: Option<&str>, bearer_for: &[String]) -> Result<Tokens, String> {
        let names = || {
            Role::ALL
                .iter()
                .map(|r| r.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut tokens = Tokens {
            bearer: bearer.map(str::to_owned),
            roles: Vec::new(),
        };
        if tokens.bearer.as_deref() == Some("") {
            return Err("--bearer needs a token".into());
        }
        for given in bearer_for {
            let (name, token) = given.split_once('=').ok_or_else(|| {
                format!(
                    "--bearer-for {given:?}: write ROLE=TOKEN, ROLE one of {}",
                    names()
                )
            })?;
            let role = Role::ALL
                .into_iter()
                .find(|r| r.name() == name)
                .ok_or_else(|| {
                    format!(
                        "--bearer-for: unknown role {name:?}; the roles are {}",
                        names()
                    )
                })?;
            if token.is_empty() {
                return Err(format!("--bearer-for {name}= needs a token"));
            }
            if tokens.role(role).is_some() {
                return Err(format!("--bearer-for {name} is given twice"));
            }
            tokens.roles.push((role, token.to_owned()));
        }
        Ok(tokens)
    }

    /// The token of `role`, if given.
    pub fn role(&self, role: Role) -> Option<&str> {
        self.roles
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, t)| t.as_str())
    }
}
