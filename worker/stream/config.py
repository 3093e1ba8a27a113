"""aiokafka client keyword arguments from Settings: connection security, consumer and producer tuning.

Choices forced by the at-least-once design (and by the Tansu test broker, see the broker notes):
manual commits only, a plain producer (no idempotence, no transactions: aiokafka cannot initialise
them against Tansu), acks=all so an ack means the output is durable wherever the cluster can make it.
"""

from __future__ import annotations

from typing import Any

from worker.settings import Settings

# The settings security_config reads: every command that talks to Kafka offers these as flags.
CONNECTION_SETTINGS = (
    "bootstrap_servers",
    "security_protocol",
    "sasl_mechanism",
    "sasl_username",
    "sasl_password",
    "ssl_cafile",
    "ssl_certfile",
    "ssl_keyfile",
    "ssl_password",
    "ssl_check_hostname",
)
# The settings producer_config reads, connection included.
PRODUCER_SETTINGS = (
    *CONNECTION_SETTINGS,
    "client_id",
    "compression_type",
    "max_request_size",
    "max_batch_size",
    "linger_ms",
)


def security_config(settings: Settings) -> dict[str, Any]:
    """Connection keywords shared by consumer, producer and admin clients."""
    config: dict[str, Any] = {
        "bootstrap_servers": settings.bootstrap_servers,
        "security_protocol": settings.security_protocol,
    }
    if settings.security_protocol in {"SSL", "SASL_SSL"}:
        from aiokafka.helpers import create_ssl_context

        context = create_ssl_context(
            cafile=settings.ssl_cafile or None,
            certfile=settings.ssl_certfile or None,
            keyfile=settings.ssl_keyfile or None,
            password=settings.ssl_password or None,
        )
        context.check_hostname = settings.ssl_check_hostname
        config["ssl_context"] = context
    if settings.security_protocol.startswith("SASL_"):
        config["sasl_mechanism"] = settings.sasl_mechanism or "PLAIN"
        config["sasl_plain_username"] = settings.sasl_username
        config["sasl_plain_password"] = settings.sasl_password
    return config


def consumer_config(settings: Settings, client_suffix: str = "") -> dict[str, Any]:
    return {
        **security_config(settings),
        "client_id": settings.client_id + client_suffix,
        "group_id": settings.group_id,
        "enable_auto_commit": False,
        "auto_offset_reset": settings.auto_offset_reset,
        "session_timeout_ms": settings.session_timeout_ms,
        "heartbeat_interval_ms": settings.heartbeat_interval_ms,
        "fetch_max_wait_ms": settings.fetch_max_wait_ms,
        "max_poll_records": settings.max_poll_records,
        "max_partition_fetch_bytes": settings.max_partition_fetch_bytes,
        "fetch_max_bytes": settings.fetch_max_bytes,
        # Joins must not wait longer than a session (Tansu holds each join for half of one).
        "rebalance_timeout_ms": max(settings.session_timeout_ms, 1000),
    }


def producer_config(settings: Settings, client_suffix: str = "") -> dict[str, Any]:
    compression = None if settings.compression_type in {"", "none"} else settings.compression_type
    return {
        **security_config(settings),
        "client_id": settings.client_id + client_suffix,
        "acks": "all",
        "enable_idempotence": False,
        "compression_type": compression,
        "max_request_size": settings.max_request_size,
        "max_batch_size": settings.max_batch_size,
        "linger_ms": settings.linger_ms,
    }
