# toreshi in a container: `docker build -t toreshi .`, then see compose.yaml and docs/deploy.md.
#
# Stage 1 builds the wheel with gcc (the togyz engine's C search, src/toreshi/togyz/engine/_native.c) and collects
# the wheels of every dependency; stage 2 installs them into a slim image without a compiler and runs as a
# non-root user.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY pyproject.toml hatch_build.py README.md ./
COPY src ./src
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 TERM=dumb
# DejaVu Sans: the font the results bundle's PDF crosstable is drawn in (Kazakh and Russian letters).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels toreshi \
    && python -c "from toreshi.togyz.engine.search import NATIVE; assert NATIVE, 'the C search is missing'"
RUN useradd --system --uid 10001 --user-group --home-dir /srv/toreshi --create-home toreshi \
    && mkdir /srv/toreshi/data && chown toreshi:toreshi /srv/toreshi/data
USER toreshi
WORKDIR /srv/toreshi
# secret.key (the session key) lives here, and the SQLite database when no --db is given.
VOLUME /srv/toreshi/data
EXPOSE 8000
# GET /api/session answers 200 once the instance is up (docs/deploy.md).
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/session', timeout=2)"]
ENTRYPOINT ["toreshi"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--data-dir", "/srv/toreshi/data"]
