-- SPDX-License-Identifier: Zlib
-- earshot.compat: names and units familiar to BGT and NVGT developers, over the earshot
-- module (docs/lua.md, "earshot.compat"). Volumes are in dB (0 loudest, -100 silent),
-- pans -100 (left) .. 100 (right), pitches in percent (100 normal), as in BGT.
--
-- A BGT pan of p is a level difference: the far channel sounds |p| dB below the near
-- one, which stays at the sound's volume (DirectSound's pan, which BGT's sound object
-- exposes divided by 100). The stage's flat voices keep the near channel at unity and
-- dim the far one by (1 - |stage pan|), so a BGT pan p is the stage pan
-- sign(p) * (1 - 10^(-|p|/20)) exactly.
--
-- sound_pool positions sounds by BGT's formulas (the "bgt" distance model, the default):
--   pan    = start_pan + (source_x - listener_x) * pan_step, within -100 .. 100
--   volume = start_volume - (|dx| + |dy| + |dz|) * volume_step, at least -100
--   pitch  = start_pitch - behind_pitch_decrease while the source is behind the
--            listener (2D: source_y < listener_y; 3D: the forward axis, y, or z when
--            y_is_elevation)
-- where dx, dy, dz are measured to the nearest point of the sound's range box (a sound
-- with ranges is heard at full level from anywhere inside them). A sound whose distance
-- (the same sum, BGT's get_total_distance) is beyond max_distance (when above 0) is not
-- started: play_* returns -2; a looping one is started again when the listener comes
-- back within reach. With distance_model = "physical" the sounds are placed in the
-- stage's 3D world instead (1 unit = 1 metre; x east, y north or up with
-- y_is_elevation), attenuated by the stage's distance model, and pan_step and
-- volume_step do not apply.
local E = require("earshot")
local M = {}

-- ---- speech, keys, time -------------------------------------------------------------

function M.screen_reader_speak(text, interrupt)
    if interrupt == nil then interrupt = true end
    E.say(tostring(text), interrupt)
    return true
end
M.screen_reader_speak_interrupt = function(text) return M.screen_reader_speak(text, true) end

local key_names = {"A","B","C","D","E","F","G","H","I","J","K","L","M","N","O","P","Q",
    "R","S","T","U","V","W","X","Y","Z","0","1","2","3","4","5","6","7","8","9",
    "F1","F2","F3","F4","F5","F6","F7","F8","F9","F10","F11","F12",
    "ESCAPE","SPACE","TAB","BACKSPACE","DELETE","INSERT","HOME","END","UP","DOWN","LEFT",
    "RIGHT","LSHIFT","RSHIFT","MINUS","EQUALS","COMMA","PERIOD","SLASH","SEMICOLON",
    "APOSTROPHE","BACKSLASH","GRAVE"}
for _, name in ipairs(key_names) do M["KEY_" .. name] = name end
-- BGT's names for the keys Earshot names otherwise
M.KEY_RETURN = "ENTER"
M.KEY_BACK = "BACKSPACE"
M.KEY_PRIOR = "PAGE_UP"
M.KEY_NEXT = "PAGE_DOWN"
M.KEY_LCONTROL = "LCTRL"
M.KEY_RCONTROL = "RCTRL"
M.KEY_LMENU = "LALT"
M.KEY_RMENU = "RALT"
M.KEY_LBRACKET = "LEFT_BRACKET"
M.KEY_RBRACKET = "RIGHT_BRACKET"

function M.key_pressed(key) return E.key_pressed(key) end
function M.key_down(key) return E.key_down(key) end
function M.key_released(key) return E.key_released(key) end
-- BGT's key_repeating: true on the press, then every 0.05 s after a 0.5 s hold
function M.key_repeating(key) return E.key_repeating(key, 0.5, 0.05) end

function M.wait(ms) E.wait(ms) end

-- exit(): the game ends at the end of this frame (the save is written if asked for).
function M.exit()
    E.quit()
    while true do E.wait(1000) end
end

-- random(min, max): an integer in min .. max, both included (the sandbox seeds Lua's
-- generator the same way each run, so a replay replays).
function M.random(lo, hi) return math.random(lo, hi) end

-- BGT's timer: elapsed milliseconds of real time, paused and resumed.
local timer = {}
timer.__index = timer
function M.timer()
    return setmetatable({start = E.real_time(), paused_at = nil}, timer)
end
function timer:elapsed()
    local now = self.paused_at or E.real_time()
    return math.floor((now - self.start) * 1000 + 0.5)
end
function timer:restart() self.start = E.real_time(); if self.paused_at then self.paused_at = self.start end end
function timer:pause() if not self.paused_at then self.paused_at = E.real_time() end end
function timer:resume()
    if self.paused_at then
        self.start = self.start + (E.real_time() - self.paused_at)
        self.paused_at = nil
    end
end

-- ---- the BGT sound model --------------------------------------------------------------

-- A BGT pan (-100 .. 100, dB of the far channel) as the stage's flat-voice pan.
function M.stage_pan(bgt_pan)
    local p = math.max(-100, math.min(100, bgt_pan))
    local far = 1 - 10 ^ (-math.abs(p) / 20)
    if p < 0 then return -far end
    return far
end

-- BGT's volume (dB, 0 .. -100) as the stage's volume_db (-100 and below: silent).
local function stage_db(volume)
    if volume <= -100 then return -300 end
    return math.min(volume, 0)
end

-- The position a sound with ranges is heard from: the listener's coordinate clamped to
-- the range box [x - left, x + right] and so on.
local function clamp(v, lo, hi)
    if v < lo then return lo elseif v > hi then return hi end
    return v
end

-- BGT's formulas (above) for one item: pan, volume (dB), pitch (percent).
function M.bgt_position(pool, item, lx, ly, lz)
    if item.stationary then return item.start_pan, item.start_volume, item.start_pitch end
    local sx = clamp(lx, item.x - item.left, item.x + item.right)
    local sy = clamp(ly, item.y - item.backward, item.y + item.forward)
    local sz = clamp(lz, item.z - item.lower, item.z + item.upper)
    local dx, dy, dz = sx - lx, sy - ly, sz - lz
    if item.dims < 2 then dy = 0 end
    if item.dims < 3 then dz = 0 end
    local pan = item.start_pan + dx * item.pan_step
    local volume = item.start_volume - (math.abs(dx) + math.abs(dy) + math.abs(dz)) * item.volume_step
    local pitch = item.start_pitch
    local behind
    if pool.y_is_elevation then
        behind = item.dims == 3 and sz < lz
    else
        behind = item.dims >= 2 and sy < ly
    end
    if behind then pitch = pitch - item.behind_pitch_decrease end
    pan = clamp(pan, -100, 100)
    if volume < -100 then volume = -100 end
    if volume > 0 then volume = 0 end
    if pitch < 1 then pitch = 1 end
    return pan, volume, pitch
end

-- The distance BGT's max_distance compares (the sum of the axes' distances to the range
-- box; 0 for a stationary sound).
function M.bgt_distance(item, lx, ly, lz)
    if item.stationary then return 0 end
    local sx = clamp(lx, item.x - item.left, item.x + item.right)
    local sy = clamp(ly, item.y - item.backward, item.y + item.forward)
    local sz = clamp(lz, item.z - item.lower, item.z + item.upper)
    local d = math.abs(sx - lx)
    if item.dims >= 2 then d = d + math.abs(sy - ly) end
    if item.dims >= 3 then d = d + math.abs(sz - lz) end
    return d
end

-- ---- sound_pool -----------------------------------------------------------------------

local pool = {}
pool.__index = pool

function M.sound_pool(max_sounds)
    local p = setmetatable({
        max_sounds = max_sounds or 100,
        pan_step = 1.0, volume_step = 1.0, behind_pitch_decrease = 0.25,
        max_distance = 0, y_is_elevation = false, distance_model = "bgt",
        items = {}, lx = 0, ly = 0, lz = 0,
    }, pool)
    return p
end

-- The stage position of a pool coordinate in the physical model.
local function world_xyz(p, x, y, z)
    if p.y_is_elevation then return x, y, -z end
    return x, z, -y
end

function pool:_apply(slot, item)
    if not item.voice then return end
    if self.distance_model == "physical" and not item.stationary then
        item.voice:set_position(world_xyz(self, item.x, item.y, item.z))
        item.voice:set_volume_db(stage_db(item.start_volume))
        item.voice:set_pitch(item.start_pitch / 100)
        return
    end
    local pan, volume, pitch = M.bgt_position(self, item, self.lx, self.ly, self.lz)
    item.pan, item.volume, item.pitch = pan, volume, pitch
    item.voice:set_pan(M.stage_pan(pan))
    item.voice:set_volume_db(stage_db(volume))
    item.voice:set_pitch(pitch / 100)
end

function pool:_start(item)
    local options = {loop = item.looping}
    if item.offset > 0 then options.offset_s = item.offset / 1000 end
    if self.distance_model == "physical" and not item.stationary then
        options.x, options.y, options.z = world_xyz(self, item.x, item.y, item.z)
        options.volume_db = stage_db(item.start_volume)
        options.pitch = item.start_pitch / 100
        if self.max_distance > 0 then
            options.model, options.max_distance = "fade", self.max_distance
        end
    else
        local pan, volume, pitch = M.bgt_position(self, item, self.lx, self.ly, self.lz)
        item.pan, item.volume, item.pitch = pan, volume, pitch
        options.pan = M.stage_pan(pan)
        options.volume_db = stage_db(volume)
        options.pitch = pitch / 100
    end
    local ok, voice = pcall(E.play, item.filename, options)
    if not ok then return false end
    item.voice = voice
    return true
end

function pool:_free_slot()
    for i = 0, self.max_sounds - 1 do
        local it = self.items[i]
        if not it then return i end
        if not it.persistent and not it.looping and it.voice and not it.voice:playing() then
            self.items[i] = nil
            return i
        end
    end
    return -1
end

-- The one play behind every form: dims 0 (stationary), 1, 2, 3.
function pool:_play(o)
    if type(o.filename) ~= "string" or o.filename == "" then return -1 end
    local slot = self:_free_slot()
    if slot < 0 then return -1 end
    local item = {
        filename = o.filename, looping = o.looping and true or false,
        persistent = o.persistent and true or false,
        stationary = o.dims == 0, dims = o.dims,
        x = o.sx or 0, y = o.sy or 0, z = o.sz or 0,
        left = o.left or 0, right = o.right or 0, backward = o.backward or 0,
        forward = o.forward or 0, lower = o.lower or 0, upper = o.upper or 0,
        start_pan = o.start_pan or 0, start_volume = o.start_volume or 0,
        start_pitch = o.start_pitch or 100,
        offset = math.max(0, tonumber(o.offset) or 0), -- milliseconds into the sound
        pan_step = self.pan_step, volume_step = self.volume_step,
        behind_pitch_decrease = self.behind_pitch_decrease,
        owner = nil,
    }
    if o.dims > 0 then self.lx, self.ly, self.lz = o.lx or 0, o.ly or 0, o.lz or 0 end
    if self.max_distance > 0 and M.bgt_distance(item, self.lx, self.ly, self.lz) > self.max_distance then
        if not item.looping then return -2 end
        self.items[slot] = item -- a loop out of reach waits to be heard
        return slot
    end
    if not self:_start(item) then return -1 end
    self.items[slot] = item
    return slot
end

function pool:play_stationary(filename, looping, persistent)
    return self:_play{filename = filename, looping = looping, persistent = persistent, dims = 0}
end
function pool:play_stationary_extended(filename, looping, offset, start_pan, start_volume, start_pitch, persistent)
    return self:_play{offset = offset, filename = filename, looping = looping, persistent = persistent, dims = 0,
        start_pan = start_pan, start_volume = start_volume, start_pitch = start_pitch}
end
function pool:play_1d(filename, listener_x, sound_x, looping, persistent)
    return self:_play{filename = filename, lx = listener_x, sx = sound_x, looping = looping,
        persistent = persistent, dims = 1}
end
function pool:play_extended_1d(filename, listener_x, sound_x, left_range, right_range, looping,
                               offset, start_pan, start_volume, start_pitch, persistent)
    return self:_play{offset = offset, filename = filename, lx = listener_x, sx = sound_x, left = left_range,
        right = right_range, looping = looping, start_pan = start_pan,
        start_volume = start_volume, start_pitch = start_pitch, persistent = persistent, dims = 1}
end
function pool:play_2d(filename, listener_x, listener_y, sound_x, sound_y, looping, persistent)
    return self:_play{filename = filename, lx = listener_x, ly = listener_y, sx = sound_x,
        sy = sound_y, looping = looping, persistent = persistent, dims = 2}
end
function pool:play_extended_2d(filename, listener_x, listener_y, sound_x, sound_y, left_range,
                               right_range, backward_range, forward_range, looping, offset,
                               start_pan, start_volume, start_pitch, persistent)
    return self:_play{offset = offset, filename = filename, lx = listener_x, ly = listener_y, sx = sound_x,
        sy = sound_y, left = left_range, right = right_range, backward = backward_range,
        forward = forward_range, looping = looping, start_pan = start_pan,
        start_volume = start_volume, start_pitch = start_pitch, persistent = persistent, dims = 2}
end
function pool:play_3d(filename, listener_x, listener_y, listener_z, sound_x, sound_y, sound_z, looping, persistent)
    return self:_play{filename = filename, lx = listener_x, ly = listener_y, lz = listener_z,
        sx = sound_x, sy = sound_y, sz = sound_z, looping = looping, persistent = persistent, dims = 3}
end
function pool:play_extended_3d(filename, listener_x, listener_y, listener_z, sound_x, sound_y,
                               sound_z, left_range, right_range, backward_range, forward_range,
                               upper_range, lower_range, looping, offset, start_pan,
                               start_volume, start_pitch, persistent)
    return self:_play{offset = offset, filename = filename, lx = listener_x, ly = listener_y, lz = listener_z,
        sx = sound_x, sy = sound_y, sz = sound_z, left = left_range, right = right_range,
        backward = backward_range, forward = forward_range, upper = upper_range,
        lower = lower_range, looping = looping, start_pan = start_pan,
        start_volume = start_volume, start_pitch = start_pitch, persistent = persistent, dims = 3}
end
-- NVGT's aliases of the extended forms
pool.play_1d_extended = pool.play_extended_1d
pool.play_2d_extended = pool.play_extended_2d
pool.play_3d_extended = pool.play_extended_3d

-- Moves the listener: every sound is positioned again; a loop that came into reach
-- starts, one that left it stops; finished one-shots are freed.
function pool:update_listener_3d(x, y, z)
    self.lx, self.ly, self.lz = x, y or 0, z or 0
    for slot, item in pairs(self.items) do
        if item.voice and not item.looping and not item.voice:playing() and not item.persistent then
            self.items[slot] = nil
        elseif self.max_distance > 0 and item.looping then
            local far = M.bgt_distance(item, self.lx, self.ly, self.lz) > self.max_distance
            if far and item.voice then
                item.voice:stop(0.02)
                item.voice = nil
            elseif not far and not item.voice then
                self:_start(item)
            elseif item.voice then
                self:_apply(slot, item)
            end
        else
            self:_apply(slot, item)
        end
    end
end
function pool:update_listener_1d(x) self:update_listener_3d(x, 0, 0) end
function pool:update_listener_2d(x, y) self:update_listener_3d(x, y, 0) end

local function item_of(self, slot)
    if type(slot) ~= "number" then return nil end
    return self.items[slot]
end

function pool:update_sound_3d(slot, x, y, z)
    local item = item_of(self, slot)
    if not item then return false end
    item.x, item.y, item.z = x, y or 0, z or 0
    self:_apply(slot, item)
    return true
end
function pool:update_sound_1d(slot, x) return self:update_sound_3d(slot, x, 0, 0) end
function pool:update_sound_2d(slot, x, y) return self:update_sound_3d(slot, x, y, 0) end
function pool:update_sound_start_values(slot, start_pan, start_volume, start_pitch)
    local item = item_of(self, slot)
    if not item then return false end
    item.start_pan, item.start_volume, item.start_pitch = start_pan, start_volume, start_pitch
    self:_apply(slot, item)
    return true
end
function pool:update_sound_range_3d(slot, left, right, backward, forward, lower, upper)
    local item = item_of(self, slot)
    if not item then return false end
    item.left, item.right = left or 0, right or 0
    item.backward, item.forward = backward or 0, forward or 0
    item.lower, item.upper = lower or 0, upper or 0
    self:_apply(slot, item)
    return true
end
function pool:update_sound_range_1d(slot, left, right) return self:update_sound_range_3d(slot, left, right) end
function pool:update_sound_range_2d(slot, left, right, backward, forward)
    return self:update_sound_range_3d(slot, left, right, backward, forward)
end

function pool:destroy_sound(slot)
    local item = item_of(self, slot)
    if not item then return false end
    if item.voice then item.voice:stop(0.01) end
    self.items[slot] = nil
    return true
end
function pool:destroy_all()
    for slot in pairs(self.items) do self:destroy_sound(slot) end
end
function pool:sound_is_active(slot) return item_of(self, slot) ~= nil end
function pool:sound_is_playing(slot)
    local item = item_of(self, slot)
    return item ~= nil and item.voice ~= nil and item.voice:playing()
end
-- What a slot sounds like now: pan, volume (dB), pitch (percent) by BGT's formulas.
function pool:get_sound_values(slot)
    local item = item_of(self, slot)
    if not item then return nil end
    return M.bgt_position(self, item, self.lx, self.ly, self.lz)
end

-- Owners: a slot may belong to something in the game (a monster, a door); destroying the
-- owner's sounds frees them all.
function pool:set_sound_owner(slot, owner)
    local item = item_of(self, slot)
    if not item then return false end
    item.owner = owner
    return true
end
function pool:get_sound_owner(slot)
    local item = item_of(self, slot)
    return item and item.owner
end
function pool:destroy_owner(owner)
    local n = 0
    for slot, item in pairs(self.items) do
        if item.owner == owner then self:destroy_sound(slot); n = n + 1 end
    end
    return n
end

-- ---- audio_form -----------------------------------------------------------------------

local form = {}
form.__index = form

function M.audio_form()
    return setmetatable({controls = {}, focus = 0, pressed = {}, title = ""}, form)
end

function form:create_window(title)
    self.title = title or ""
    self.controls, self.focus, self.pressed = {}, 0, {}
    if title and title ~= "" then E.say(title, true) end
    return true
end

local function add(self, c)
    self.controls[#self.controls + 1] = c
    local id = #self.controls - 1
    if self.focus == 0 then self.focus = 1; self.announce_first = true end
    return id
end

function form:create_button(caption, primary, cancel)
    return add(self, {kind = "button", caption = caption, primary = primary, cancel = cancel})
end
function form:create_input_box(caption, default_text, password)
    return add(self, {kind = "input", caption = caption, text = default_text or "", password = password})
end
function form:create_checkbox(caption, initial)
    return add(self, {kind = "checkbox", caption = caption, checked = initial and true or false})
end
function form:create_list(caption)
    return add(self, {kind = "list", caption = caption, items = {}, position = -1})
end
function form:add_list_item(id, text)
    local c = self.controls[id + 1]
    if not c or c.kind ~= "list" then return -1 end
    c.items[#c.items + 1] = text
    if c.position < 0 then c.position = 0 end
    return #c.items - 1
end
function form:create_slider(caption, default, minimum, maximum, step)
    return add(self, {kind = "slider", caption = caption, value = default or 50,
        min = minimum or 0, max = maximum or 100, step = step or 1})
end

local function describe(c)
    if c.kind == "button" then return c.caption .. " button" end
    if c.kind == "checkbox" then return c.caption .. " checkbox " .. (c.checked and "checked" or "not checked") end
    if c.kind == "input" then
        local shown = c.password and string.rep("*", utf8.len(c.text) or #c.text) or c.text
        return c.caption .. " edit " .. (shown ~= "" and shown or "blank")
    end
    if c.kind == "list" then
        local item = c.items[c.position + 1]
        return c.caption .. " list " .. (item or "empty")
    end
    if c.kind == "slider" then return c.caption .. " slider " .. tostring(c.value) end
    return c.caption
end

-- One frame of the form: Tab and Shift+Tab move between controls (each spoken), Enter
-- presses the focused button (or the primary one), Escape the cancel button, Space
-- toggles a checkbox or presses a button, Up and Down choose in a list, Left and Right
-- move a slider by its step, typing edits an input box (Backspace deletes).
function form:monitor()
    if #self.controls == 0 then return end
    if self.announce_first then
        self.announce_first = false
        E.say(describe(self.controls[self.focus]), false)
    end
    local c = self.controls[self.focus]
    local shift = E.key_down("LSHIFT") or E.key_down("RSHIFT")
    if E.key_pressed("TAB") then
        local n = #self.controls
        self.focus = shift and ((self.focus - 2) % n + 1) or (self.focus % n + 1)
        E.say(describe(self.controls[self.focus]), true)
        return
    end
    if E.key_pressed("ENTER") then
        if c.kind == "button" then
            self.pressed[self.focus - 1] = true
        else
            for i, b in ipairs(self.controls) do
                if b.kind == "button" and b.primary then self.pressed[i - 1] = true end
            end
        end
    end
    if E.key_pressed("ESCAPE") then
        for i, b in ipairs(self.controls) do
            if b.kind == "button" and b.cancel then self.pressed[i - 1] = true end
        end
    end
    if c.kind == "button" and E.key_pressed("SPACE") then self.pressed[self.focus - 1] = true end
    if c.kind == "checkbox" and E.key_pressed("SPACE") then
        c.checked = not c.checked
        E.say(c.checked and "checked" or "not checked", true)
    elseif c.kind == "list" and #c.items > 0 then
        local moved = 0
        if E.key_repeating("DOWN", 0.5, 0.05) then moved = 1 end
        if E.key_repeating("UP", 0.5, 0.05) then moved = -1 end
        if moved ~= 0 then
            c.position = math.max(0, math.min(#c.items - 1, c.position + moved))
            E.say(c.items[c.position + 1], true)
        end
    elseif c.kind == "slider" then
        local moved = 0
        if E.key_repeating("RIGHT", 0.5, 0.05) or E.key_repeating("UP", 0.5, 0.05) then moved = c.step end
        if E.key_repeating("LEFT", 0.5, 0.05) or E.key_repeating("DOWN", 0.5, 0.05) then moved = -c.step end
        if moved ~= 0 then
            c.value = math.max(c.min, math.min(c.max, c.value + moved))
            E.say(tostring(c.value), true)
        end
    elseif c.kind == "input" then
        local typed = E.text_typed()
        if typed ~= "" then
            c.text = c.text .. typed
            E.say(c.password and "*" or typed, true)
        end
        if E.key_repeating("BACKSPACE", 0.5, 0.05) and c.text ~= "" then
            local cut = utf8.offset(c.text, -1)
            local gone = c.text:sub(cut)
            c.text = c.text:sub(1, cut - 1)
            E.say(c.password and "*" or gone, true)
        end
    end
end

-- True once for each press of the button (the press is consumed).
function form:is_pressed(id)
    if self.pressed[id] then self.pressed[id] = nil; return true end
    return false
end
function form:get_text(id)
    local c = self.controls[id + 1]
    return c and c.text or ""
end
function form:is_checked(id)
    local c = self.controls[id + 1]
    return c ~= nil and c.checked == true
end
function form:get_list_position(id)
    local c = self.controls[id + 1]
    return c and c.position or -1
end
function form:get_list_item(id, position)
    local c = self.controls[id + 1]
    return c and c.items[(position or c.position) + 1] or ""
end
function form:get_slider(id)
    local c = self.controls[id + 1]
    return c and c.value or 0
end
function form:focus_control(id)
    if not self.controls[id + 1] then return false end
    self.focus = id + 1
    E.say(describe(self.controls[self.focus]), true)
    return true
end
form.set_default_focus = form.focus_control

-- ---- the globals a BGT script expects -------------------------------------------------

-- compat.install(): puts these names in the script's globals (as BGT has them), so a
-- port reads like the original: sound_pool(), audio_form(), screen_reader_speak,
-- key_pressed, KEY_LEFT, wait, timer(), random, exit.
function M.install(env)
    env = env or _G
    for name, value in pairs(M) do
        if name ~= "install" then env[name] = value end
    end
    return env
end

return M
