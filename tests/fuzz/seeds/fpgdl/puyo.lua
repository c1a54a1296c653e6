-- Puyo Puyo: the FPGDL program of the paper (../shared/seeds/falling-block-gdl-paper.ja.txt L716–L850, §5.1), verbatim; line numbers stripped and wrapped lines re-joined, so line N+1 here is the paper's line N.
setFieldSize ( 6 , 13 ) --パズルのプレイフィールドのサイズ指定
blockSize ( 30 ) --ブロックの描画サイズ指定
setSuperRotation( false ) --回転補正を無効にする
setQuickTurn( true ) --クイックターンを有効にする
setClearMode( -1 ) --消去ルールモードを大まかに指定（自らアルゴリズムを組む場合-値）
setHardDrop( false ) --ハードドロップを無効にする

--ブロックを作成
createBlockPattern( 1 )
createBlockPattern( 2 )
createBlockPattern( 3 )
createBlockPattern( 4 )
createBlockPattern( 5 )
--ブロックの形状を指定
setBlockForm( 1 , 1 )
setBlockForm( 2 , 1 )
setBlockForm( 3 , 1 )
setBlockForm( 4 , 1 )
setBlockForm( 5 , 1 )
--ブロックに色を指定
setBlockFormColor( 1 , 255 , 0 , 0 )
setBlockFormColor( 2 , 0 , 255 , 0 )
setBlockFormColor( 3 , 80 , 80 , 255 )
setBlockFormColor( 4 , 180 , 0 , 255 )
setBlockFormColor( 5 , 255 , 255 , 0 )

--多次元配列準備
arrays = {}
for p = 1 , 3 do
arrays[p] = {}
end

--ツモの設定
arrays[0] = { 0 , 1 , 0 }
arrays[1] = { 0 , 2 , 0 }
arrays[2] = { 0 , 0 , 0 }
setTumo( arrays , 0 , 0 )--回転形状 1
arrays[0] = { 0 , 0 , 0 }
arrays[1] = { 0 , 2 , 1 }
arrays[2] = { 0 , 0 , 0 }
setTumo( arrays , 0 , 1 )--回転形状 2
arrays[0] = { 0 , 0 , 0 }
arrays[1] = { 0 , 2 , 0 }
arrays[2] = { 0 , 1 , 0 }
setTumo( arrays , 0 , 2 )--回転形状 3
arrays[0] = { 0 , 0 , 0 }
arrays[1] = { 1 , 2 , 0 }
arrays[2] = { 0 , 0 , 0 }
setTumo( arrays , 0 , 3 )--回転形状 4

function update()

--落下させる量を保持する変数
downnum = 0
y = getFieldHeight()
for p = 0 , getFieldHeight() do
y = y - 1
--4つ以上くっついていたら消える
for x = 0 , getFieldWidth() do
--常に落下をさせる
setBlockDownCellNum( x , y , getFieldHeight() )
--4つ以上連結しているなおかつ落下中のブロックがいない時消滅判定を発生させる
if getComboBlockNum( x , y ) >= 4 and getFieldBlock( x , y ) < 100 and getAllBlockDownFlag() == false then
setBlockDeleteFlag( x , y ) --ブロックを消滅させる
end
end
end

end
