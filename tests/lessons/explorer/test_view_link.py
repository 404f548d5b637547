"""The Explorer's view in its link: parsed with a warning per bad value, written back
only where it differs from the default (2-D on components 1 and 2)."""

from __future__ import annotations

import pytest

from lessons.explorer.view_link import VIEW_2D, VIEW_3D, view_from_query, view_to_query


@pytest.mark.parametrize(
    ("query", "view"),
    [({}, {}), ({"view": "3D "}, {"dims": VIEW_3D}), ({"view": "2d", "axes": "2,4"},
                                                       {"dims": VIEW_2D, "axes": (2, 4)}),
     ({"axes": "1,3,5"}, {"axes": (1, 3, 5)}), ({"view": ["2d", "3d"]}, {"dims": VIEW_3D})],
)
def test_a_good_view_is_read(query, view):
    assert view_from_query(query) == (view, [])


@pytest.mark.parametrize(
    ("query", "bad"),
    [({"view": "4d"}, "`view`"), ({"axes": "1,1"}, "`axes`"), ({"axes": "0,2"}, "`axes`"),
     ({"axes": "1,x"}, "`axes`"), ({"axes": "1,2,3,4"}, "`axes`"), ({"axes": "1,99"}, "`axes`")],
)
def test_a_bad_view_warns_and_is_left_out(query, bad):
    view, warnings = view_from_query(query)
    assert view == {} and len(warnings) == 1 and bad in warnings[0]


def test_the_default_view_needs_no_parameters_and_others_round_trip():
    assert view_to_query(VIEW_2D, (1, 2)) == {}
    assert view_to_query(VIEW_3D, (1, 2, 3)) == {"view": "3d"}
    assert view_to_query(VIEW_2D, (2, 4)) == {"axes": "2,4"}
    view, warnings = view_from_query(view_to_query(VIEW_3D, (2, 3, 4)))
    assert view == {"dims": VIEW_3D, "axes": (2, 3, 4)} and warnings == []
