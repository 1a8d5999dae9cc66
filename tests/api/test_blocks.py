"""Blocks: private, and they keep two accounts apart at tables."""

from __future__ import annotations

from accounts.models import Block


def open_table(client, **changes) -> dict:
    body = {"title": "duel", "seats": 3, **changes}
    response = client.post("/api/tables/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_player_blocks_and_unblocks_and_only_they_see_the_list(as_, alice, bob):
    made = as_(alice).post("/api/blocks/", {"username": "bob"}, format="json")
    assert made.status_code == 201 and made.json() == {"blocks": ["bob"]}
    assert as_(alice).post("/api/blocks/", {"username": "bob"}, format="json").status_code == 201
    assert Block.objects.count() == 1
    assert as_(bob).get("/api/blocks/").json() == {"blocks": []}
    assert as_(alice).delete("/api/blocks/bob/").status_code == 204
    assert as_(alice).delete("/api/blocks/bob/").status_code == 404
    assert as_(alice).get("/api/blocks/").json() == {"blocks": []}


def test_nonsense_blocks_are_refused(as_, alice):
    for name in ["alice", "nobody"]:
        refused = as_(alice).post("/api/blocks/", {"username": name}, format="json")
        assert refused.status_code == 400 and refused.json()["error"] == "invalid"
    assert not Block.objects.exists()


def test_neither_side_sees_the_others_tables_nor_sits_with_them(as_, alice, bob, carol):
    as_(alice).post("/api/blocks/", {"username": "bob"}, format="json")
    hers = open_table(as_(alice))
    his = open_table(as_(bob))
    open_table(as_(carol))
    seen_by_bob = [t["id"] for t in as_(bob).get("/api/tables/?open=1").json()["results"]]
    seen_by_alice = [t["id"] for t in as_(alice).get("/api/tables/?open=1").json()["results"]]
    assert hers["id"] not in seen_by_bob and his["id"] not in seen_by_alice
    assert len(seen_by_bob) == len(seen_by_alice) == 2  # carol's and their own
    # The blocked one finds the table gone, as if there were none: not told why.
    joined = as_(bob).post(f"/api/tables/{hers['id']}/join/", {}, format="json")
    assert joined.status_code == 404 and joined.json()["detail"] == "no such resource"
    assert as_(bob).get(f"/api/tables/{hers['id']}/").status_code == 404
    assert as_(alice).post(f"/api/tables/{his['id']}/join/", {}, format="json").status_code == 404
    # A table where neither sits yet is open to both, until one of them sits.
    theirs = open_table(as_(carol))
    assert as_(bob).post(f"/api/tables/{theirs['id']}/join/", {}, format="json").status_code == 200
    late = as_(alice).post(f"/api/tables/{theirs['id']}/join/", {}, format="json")
    assert late.status_code == 404


def test_the_blocked_ones_invitation_never_reaches_the_blocker(as_, alice, bob):
    as_(alice).post("/api/blocks/", {"username": "bob"}, format="json")
    table = open_table(as_(bob))
    sent = as_(bob).post(f"/api/tables/{table['id']}/invite/", {"usernames": ["alice"]},
                         format="json")  # fmt: skip
    assert sent.status_code == 201 and sent.json()["invited"] == ["alice"]  # as for anyone
    assert as_(alice).get("/api/invitations/").json() == {"invitations": []}
