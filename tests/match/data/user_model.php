<?php
namespace App;

use Foo\Bar;

class User extends Model
{
    protected $fillable = ['name', 'email'];

    public function posts(): array
    {
        $this->load('posts');
        $x = $this->helper(1, 2);
        if ($x === null) {
            throw new \Exception("none");
        }
        foreach ($this->items as $key => $item) {
            echo $item;
        }
        return array_map(fn($p) => $p->id, $this->posts);
    }

    private static function helper($a, $b = 3)
    {
        return $a + $b;
    }
}
