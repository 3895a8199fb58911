locals_without_parens = [
  # Phoenix.Channel
  intercept: 1,

  # Phoenix.Router
  connect: 3,
  connect: 4,
  delete: 3,
  delete: 4,
  forward: 2,
  forward: 3,
  forward: 4,
  get: 3,
  get: 4,
  head: 3,
  head: 4,
  match: 4,
  match: 5,
  options: 3,
  options: 4,
  patch: 3,
  patch: 4,
  pipeline: 2,
  pipe_through: 1,
  post: 3,
  post: 4,
  put: 3,
  put: 4,
  resources: 2,
  resources: 3,
  resources: 4,
  trace: 4,

  # Phoenix.Controller
  action_fallback: 1,

  # Phoenix.Endpoint
  plug: 1,
  plug: 2,
  socket: 2,
  socket: 3,

  # Phoenix.Socket
  channel: 2,
  channel: 3,

  # Phoenix.ChannelTest
  assert_broadcast: 2,
  assert_broadcast: 3,
  assert_push: 2,
  assert_push: 3,
  assert_reply: 2,
  assert_reply: 3,
  assert_reply: 4,
  refute_broadcast: 2,
  refute_broadcast: 3,
  refute_push: 2,
  refute_push: 3,
  refute_reply: 2,
  refute_reply: 3,
  refute_reply: 4,

  # Phoenix.ConnTest
  assert_error_sent: 2,

  # Phoenix.Live{Dashboard,View}
  attr: 2,
  attr: 3,
  embed_templates: 1,
  embed_templates: 2,
  live: 2,
  live: 3,
  live: 4,
  live_dashboard: 1,
  live_dashboard: 2,
  on_mount: 1,
  slot: 1,
  slot: 2,
  slot: 3,

  # Phoenix.LiveViewTest
  assert_patch: 1,
  assert_patch: 2,
  assert_patch: 3,
  assert_patched: 2,
  assert_push_event: 3,
  assert_push_event: 4,
  assert_redirect: 1,
  assert_redirect: 2,
  assert_redirect: 3,
  assert_redirected: 2,
  assert_reply: 2,
  assert_reply: 3,
  refute_redirected: 1,
  refute_redirected: 2,
  refute_patched: 1,
  refute_patched: 2,
  refute_push_event: 3,
  refute_push_event: 4
]

[
  locals_without_parens: locals_without_parens,
  export: [locals_without_parens: locals_without_parens]
]
