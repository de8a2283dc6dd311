//! The agent's list tools over the conversation's state: TodoWrite, TaskCreate and
//! TaskUpdate, and the skills the Skill tool ran (kept for the post-compact re-injection).

use alloc::format;
use alloc::string::String;

use super::conversation::Conversation;
use crate::host::{TaskItem, TodoItem};
use crate::wording::tools;
use crate::workspace::ToolResult;

impl Conversation {
    /// A skill the model invoked, for the post-compact re-injection (§9.5): its name from
    /// the call's `skill` field, its content from the tool's output. A skill invoked again
    /// moves to the newest place.
    pub(super) fn remember_skill(&mut self, input: &str, output: &str) {
        let name = crate::compact::summary::json::parse(input).and_then(|value| {
            value
                .get("skill")
                .and_then(|v| v.as_str().map(String::from))
        });
        let Some(name) = name.filter(|name| !name.is_empty()) else {
            return;
        };
        let invoked = &mut self.invoked_skills;
        invoked.retain(|(known, _)| *known != name);
        invoked.push((name, output.into()));
    }

    /// Replaces the list, if every item satisfies the original's schema: a non-empty
    /// `content` and a non-empty `activeForm`. Otherwise the call fails whole, naming the
    /// first item's field at fault, and the list stays as it was (the original's input
    /// validation runs before the tool).
    pub(super) fn todo_write(&mut self, todos: &[TodoItem]) -> ToolResult {
        let problem = todos.iter().enumerate().find_map(|(index, item)| {
            if item.content.is_empty() {
                return Some(format!("todos[{index}].content is empty"));
            }
            match item.active_form.as_deref() {
                None => Some(format!("todos[{index}].activeForm is missing")),
                Some("") => Some(format!("todos[{index}].activeForm is empty")),
                Some(_) => None,
            }
        });
        if let Some(problem) = problem {
            return ToolResult::error(tools::todos_invalid(&problem));
        }
        self.todos = todos.to_vec();
        ToolResult::ok(tools::TODOS_UPDATED.into())
    }

    pub(super) fn task_create(&mut self, subject: &str) -> ToolResult {
        let id = self.tasks.len() as u64 + 1;
        self.tasks.push(TaskItem {
            id,
            subject: subject.into(),
            status: "pending".into(),
        });
        ToolResult::ok(tools::task_created(id, subject))
    }

    pub(super) fn task_update(&mut self, task_id: u64, status: &str) -> ToolResult {
        match self.tasks.iter_mut().find(|t| t.id == task_id) {
            Some(task) => {
                task.status = status.into();
                ToolResult::ok(tools::task_updated(task_id, status))
            }
            None => ToolResult::error(tools::no_such_task(task_id)),
        }
    }
}
