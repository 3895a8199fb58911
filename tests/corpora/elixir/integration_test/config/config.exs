import Config

config :phoenix, :json_library, Jason

config :swoosh, api_client: false

config :tailwind, :version, "4.1.12"

config :phoenix_live_view, enable_expensive_runtime_checks: true
