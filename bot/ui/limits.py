"""Discord's limits on what a bot sends, in one place: Discord refuses a message, embed, menu or form over them
(its HTTP API description states them, and the tests' fake Discord enforces them)."""

MESSAGE_CHARS = 2000  # a message's text
MESSAGE_EMBEDS = 10
MESSAGE_EMBED_CHARS = 6000  # all the embeds of one message together
MENTIONED_USERS = 100  # allowed_mentions.users
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FIELDS = 25
EMBED_FOOTER = 2048
EMBED_CHARS = 6000  # one embed's title, description, fields, footer and author together
AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100  # an autocomplete choice's name, and its value
PARAGRAPH_INPUT = 4000  # a form's long text input
THREAD_NAME = 100
