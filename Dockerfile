# The bot's image for compose.yaml: the project installed as scripts/run-bot.sh does, with PostgreSQL support.
FROM python:3.11-slim
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir '.[postgres]'
CMD ["python", "-m", "bot"]
