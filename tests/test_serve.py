"""attention-viz serve's lecture defaults, checked by catching what it hands to Panel."""
import panel as pn
import pytest

from app import server


@pytest.fixture
def served(monkeypatch):
    calls = {}
    monkeypatch.setattr(pn, "serve", lambda apps, **kwargs: calls.update(apps=apps, **kwargs))
    monkeypatch.setattr(pn.config, "reconnect", False)
    return calls


def test_serve_defaults_outlast_a_lecture_and_reconnect(served):
    server.serve(port=6001)
    assert pn.config.reconnect is True
    assert served["session_token_expiration"] >= 2 * 60 * 60
    assert served["unused_session_lifetime_milliseconds"] >= 60_000
    assert list(served["apps"]) == ["/"]
    assert {"localhost:6001", "127.0.0.1:6001"} <= set(served["websocket_origin"])
    assert served["http_server_kwargs"]["max_header_size"] >= 200_000  # room for a long text= link


def test_num_procs_zero_means_one_per_core(served, monkeypatch):
    monkeypatch.setattr(server.os, "cpu_count", lambda: 2)
    server.serve(port=6002, num_procs=0, allow_websocket_origin=["course.example.edu"])
    assert served["num_procs"] == 2
    assert "course.example.edu" in served["websocket_origin"]


def test_each_session_gets_its_own_explorer(served):
    server.serve(port=6003)
    assert server.create_app() is not server.create_app()
