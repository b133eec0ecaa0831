//! The methods this layer serves, named once. A request's method name becomes a [`Method`]
//! where dispatch first reads it ([`Method::of`]); from there on nothing compares strings:
//! whether the server offers the method, which generated params type decodes it, and what
//! its request becomes are `match`es on the enum. Whether a *version* has the method is
//! the generated profile's answer ([`Version::has_request`](mcpwire_model::version::Version)),
//! asked with [`Method::name`].

use crate::request::Listed;
use crate::shared::Offers;
use crate::tasks::TaskMethod;

/// A method this layer serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    /// `initialize`.
    Initialize,
    /// `ping`.
    Ping,
    /// `server/discover`.
    Discover,
    /// One of the `*/list` methods.
    List(Listed),
    /// `tools/call`.
    CallTool,
    /// `resources/read`.
    ReadResource,
    /// `prompts/get`.
    GetPrompt,
    /// `logging/setLevel`.
    SetLevel,
    /// `completion/complete`.
    Complete,
    /// `resources/subscribe`.
    Subscribe,
    /// `resources/unsubscribe`.
    Unsubscribe,
    /// `subscriptions/listen`.
    Listen,
    /// A method of the Tasks extension.
    Task(TaskMethod),
}

impl Method {
    /// Every method, the most frequent first ([`of`](Self::of) tries them in this order).
    const ALL: [Method; 18] = [
        Method::CallTool,
        Method::List(Listed::Tools),
        Method::ReadResource,
        Method::GetPrompt,
        Method::Ping,
        Method::Initialize,
        Method::Discover,
        Method::List(Listed::Resources),
        Method::List(Listed::ResourceTemplates),
        Method::List(Listed::Prompts),
        Method::Complete,
        Method::SetLevel,
        Method::Subscribe,
        Method::Unsubscribe,
        Method::Listen,
        Method::Task(TaskMethod::Get),
        Method::Task(TaskMethod::Update),
        Method::Task(TaskMethod::Cancel),
    ];

    /// The method named `name`, if this layer serves one by that name.
    pub(crate) fn of(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|method| method.name() == name)
    }

    /// The method's name on the wire: the one table of names.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Method::Initialize => "initialize",
            Method::Ping => "ping",
            Method::Discover => "server/discover",
            Method::List(Listed::Tools) => "tools/list",
            Method::List(Listed::Resources) => "resources/list",
            Method::List(Listed::ResourceTemplates) => "resources/templates/list",
            Method::List(Listed::Prompts) => "prompts/list",
            Method::CallTool => "tools/call",
            Method::ReadResource => "resources/read",
            Method::GetPrompt => "prompts/get",
            Method::SetLevel => "logging/setLevel",
            Method::Complete => "completion/complete",
            Method::Subscribe => "resources/subscribe",
            Method::Unsubscribe => "resources/unsubscribe",
            Method::Listen => "subscriptions/listen",
            Method::Task(TaskMethod::Get) => "tasks/get",
            Method::Task(TaskMethod::Update) => "tasks/update",
            Method::Task(TaskMethod::Cancel) => "tasks/cancel",
        }
    }

    /// Whether a server offering `offers` serves this method (beyond a version having it):
    /// no tools registered, no `tools/*`.
    pub(crate) fn offered_by(self, offers: Offers) -> bool {
        match self {
            Method::Initialize | Method::Ping | Method::Discover | Method::SetLevel => true,
            Method::List(Listed::Tools) | Method::CallTool => offers.tools,
            Method::List(Listed::Resources | Listed::ResourceTemplates)
            | Method::ReadResource
            | Method::Subscribe
            | Method::Unsubscribe => offers.resources,
            Method::List(Listed::Prompts) | Method::GetPrompt => offers.prompts,
            Method::Complete => offers.completions,
            // Something to listen to: a list that can change, or resources to watch.
            Method::Listen => offers.tools || offers.prompts || offers.resources,
            Method::Task(_) => offers.tasks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_is_found_by_its_name_and_no_other() {
        let mut names = Method::ALL.map(Method::name).to_vec();
        for method in Method::ALL {
            assert_eq!(Method::of(method.name()), Some(method));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Method::ALL.len(), "two methods share a name");
        for unknown in [
            "",
            "tools/Call",
            "tools/call ",
            "sampling/createMessage",
            "tasks/list",
        ] {
            assert_eq!(Method::of(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn a_server_without_tools_does_not_offer_tool_methods() {
        let none = Offers::default();
        assert!(Method::Ping.offered_by(none));
        assert!(!Method::CallTool.offered_by(none));
        assert!(!Method::Listen.offered_by(none));
        assert!(!Method::Task(TaskMethod::Get).offered_by(none));
        let tools = Offers {
            tools: true,
            ..Offers::default()
        };
        assert!(Method::CallTool.offered_by(tools));
        assert!(Method::Listen.offered_by(tools));
        assert!(!Method::ReadResource.offered_by(tools));
    }
}
