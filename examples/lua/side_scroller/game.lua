-- SPDX-License-Identifier: Zlib
-- A port of the kind of side-scroller BGT and NVGT tutorials build, through earshot.compat:
-- the same sound_pool, timer, key_pressed and wait, with y_is_elevation (x runs right, y is
-- height). Walk right to the exit's chime at x = 30; jump the windy pit at x = 8 with
-- Space; a zombie groans at x = 15: strike it with Control when it is one step away.
--
--   earshot-lua examples/lua/side_scroller/game.lua
require("earshot.compat").install()

local pool = sound_pool()
pool.y_is_elevation = true
pool.pan_step = 4      -- 4 pan units (dB) per step
pool.volume_step = 1.5 -- 1.5 dB quieter per step away
pool.max_distance = 20 -- out of earshot beyond 20 steps (loops start again when near)

local EXIT_X, PIT_X = 30, 8
local me_x, me_y = 0, 0
local zombie_x, zombie_slot = 15, -1
local jumping, jump_timer, walk_timer = false, timer(), timer()
local deaths, kills = 0, 0

local function place_sounds()
    zombie_slot = pool:play_2d("synth:saw:90:0.6:0.3", me_x, me_y, zombie_x, 0, true)
    pool:play_2d("synth:noise:1:1:0.15", me_x, me_y, PIT_X, -1, true)
    pool:play_2d("synth:sine:523:0.4:0.3", me_x, me_y, EXIT_X, 0, true)
end

local function restart(why)
    deaths = deaths + 1
    pool:destroy_all()
    screen_reader_speak(why, true)
    me_x, me_y, jumping = 0, 0, false
    place_sounds()
end

local function step(dx)
    me_x = me_x + dx
    if me_x < 0 then me_x = 0 end
    walk_timer:restart()
    pool:play_stationary("synth:noise:1:0.04:0.2", false)
end

screen_reader_speak("Walk right to the chime. Space jumps, Control strikes.", true)
place_sounds()
while true do
    if key_pressed(KEY_RIGHT) or (key_down(KEY_RIGHT) and walk_timer:elapsed() >= 200) then
        step(1)
    elseif key_pressed(KEY_LEFT) or (key_down(KEY_LEFT) and walk_timer:elapsed() >= 200) then
        step(-1)
    end
    if key_pressed(KEY_SPACE) and not jumping then
        jumping, me_y = true, 2
        jump_timer:restart()
        pool:play_stationary("synth:sine:300:0.15:0.3", false)
    end
    if jumping and jump_timer:elapsed() >= 600 then
        jumping, me_y = false, 0
        pool:play_stationary("synth:square:80:0.06:0.3", false)
    end
    if key_pressed(KEY_LCONTROL) and zombie_slot >= 0 then
        if math.abs(zombie_x - me_x) <= 1 then
            pool:destroy_sound(zombie_slot)
            zombie_slot = -1
            kills = kills + 1
            pool:play_2d("synth:saw:60:0.5:0.4", me_x, me_y, zombie_x, 0, false)
            screen_reader_speak("Zombie killed", true)
        else
            pool:play_stationary("synth:noise:1:0.1:0.1", false)
        end
    end
    if me_x == PIT_X and me_y == 0 then restart("You fell into the pit") end
    if zombie_slot >= 0 and me_x == zombie_x then restart("The zombie got you") end
    if me_x >= EXIT_X then
        screen_reader_speak("You reached the exit", true)
        earshot.summary(string.format("x=%d deaths=%d kills=%d", me_x, deaths, kills))
        wait(1500)
        exit()
    end
    pool:update_listener_2d(me_x, me_y)
    wait(5)
end
