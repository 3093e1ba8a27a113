"""The pure cleaning core: no Kafka, HTTP or Prometheus imports anywhere below this package."""
