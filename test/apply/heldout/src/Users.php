<?php

namespace App\Http\Controllers;

use App\Models\User;
use Illuminate\Http\Request;

class UserController extends Controller
{
    private const ROLES = ['admin', 'editor', 'viewer'];

    public function index(Request $request)
    {
        $users = User::query()->paginate(20);
        return view('users.index', ['users' => $users]);
    }

    public function show($id)
    {
        $user = User::find($id);
        if (!$user) {
            abort(404);
        }
        return view('users.show', ['user' => $user]);
    }

    public function store(Request $request)
    {
        $data = $request->validate([
            'name' => 'required|max:255',
            'email' => 'required|email',
        ]);
        $user = User::create($data);
        return redirect()->route('users.show', $user->id);
    }

    public function destroy($id)
    {
        $user = User::find($id);
        if (!$user) {
            abort(404);
        }
        $user->delete();
        return redirect()->route('users.index');
    }
}
